import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { ApiKeysService } from '@app/application/access';
import { KeyWatch } from './key-watch';

/** The settings of `GET /events/stream`; tests shorten the heartbeat. */
@Injectable()
export class EventStreamSettings {
  /** A comment every this many ms on a quiet stream; `listen` takes 3 missed ones for a dead connection. */
  heartbeatMs = 15_000;
  /** Streams open at once per API key (decisions §10, `EVENT_STREAMS_PER_KEY`, default 10). */
  perKey = streamsPerKey(process.env.EVENT_STREAMS_PER_KEY);
  /**
   * How often an open stream asks whether its key still resolves: a revocation or rotation made
   * through another API process is seen within this (decisions §10: within one second), even by a
   * stream waiting for events.
   */
  keyCheckMs = 250;
}

function streamsPerKey(value: string | undefined): number {
  if (value === undefined || value === '') return 10;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1)
    throw new Error('EVENT_STREAMS_PER_KEY must be a positive integer');
  return Number(value);
}

/** What a stream past its key's limit is told: seconds, as Retry-After wants them (a stream ending frees a place). */
const RETRY_AFTER_SECONDS = 1;

/**
 * The streams this process serves, per API key: a shutdown ends them (a client reconnects to
 * another process with `Last-Event-ID`) rather than waiting on them, since the HTTP server closes
 * only once every response has ended; and a key holds at most `perKey` of them at once.
 */
@Injectable()
export class OpenEventStreams implements BeforeApplicationShutdown {
  private readonly open = new Map<string, Set<() => Promise<void>>>();

  constructor(
    private readonly settings: EventStreamSettings,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /** Asks whether `credential` still opens key `keyId` (key-watch.ts). */
  watchKey(credential: string, keyId: string): KeyWatch {
    return new KeyWatch(this.apiKeys, credential, keyId);
  }

  get size(): number {
    let n = 0;
    for (const ends of this.open.values()) n += ends.size;
    return n;
  }

  /**
   * Registers a stream of `keyId` and its end; returns its unregister function. One past the
   * key's limit is refused with 429 `rate_limited` (`limit_type: "event_streams"`, decisions §2).
   */
  add(keyId: string, end: () => Promise<void>): () => void {
    const ends = this.open.get(keyId) ?? new Set();
    const limit = this.settings.perKey;
    if (ends.size >= limit) {
      const message = `Too many open event streams: at most ${limit} per API key; close one or retry after ${RETRY_AFTER_SECONDS} s`;
      throw new DomainException(
        domainError('rate_limited', 'rate_limited', message, {
          details: { retry_after: RETRY_AFTER_SECONDS, limit_type: 'event_streams', current_count: ends.size, limit },
        }),
      );
    }
    ends.add(end);
    this.open.set(keyId, ends);
    return () => {
      ends.delete(end);
      if (!ends.size && this.open.get(keyId) === ends) this.open.delete(keyId);
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    const all = [...this.open.values()].flatMap((ends) => [...ends]);
    await Promise.all(all.map((end) => end().catch(() => undefined)));
    this.open.clear();
  }
}
