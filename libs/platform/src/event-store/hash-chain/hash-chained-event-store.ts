import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port';
import { RecencyMap } from '../../caching/recency-map';
import { eventStoreAppendedEvents, eventStoreAppends } from '../../metrics/metrics';
import { retry } from '../../retry/retry';
import { upToPoint } from '../point-in-time';
import { upcast } from '../upcasters';
import { withChain } from './chain-upcast';
import { GENESIS_HASH, eventHash, storedHash } from './event-hash';

/**
 * The tails cache's budget, in estimated bytes (issue 26: every cache bounded in bytes): about
 * 16,000 tails of 60-character stream ids, far more than the streams written within seconds of
 * each other (a payout's two streams are written within its request and its settle).
 */
const TAILS_MAX_BYTES = 4 * 1024 * 1024;
/** A tail's cost in the heap: its stream id (two bytes a character), a 64-character hash, the entry. */
const tailBytes = (streamId: string) => 2 * streamId.length + 2 * 64 + 120;

/**
 * The event store as the product sees it: appends are hash-chained and reads come upcast
 * (upcasters.ts; chain upcast first, on the stored form). `inner` is the stored form, for the
 * verification, which recomputes chains over exactly what was written.
 *
 * Every append of the product goes through here (adapters.ts wraps each adapter), so every stream
 * is hash-chained whoever writes it: commands, reservations, indexes, webhook queues, bootstrap.
 * The previous hash comes from a cache of stream tails fed by this process's appends and reads;
 * a command folds its stream before appending, so the tail is almost always known and the chain
 * costs one SHA-256 per event. On a miss it reads the last event (the whole stream once for a
 * stream older than chains). The expected revision the hash was chained on is the one appended
 * with, so a concurrent writer makes the append fail, never a fork in the chain.
 */
export class HashChainedEventStore implements EventStore {
  private readonly tails = new RecencyMap<{ revision: number; hash: string }>();
  private tailsBytes = 0;

  constructor(readonly inner: EventStore) {}

  async append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    // An exact revision is the caller's: a conflict is theirs to handle.
    if (typeof expected === 'number' || expected === 'no_stream') return this.appendChained(streamId, events, expected);
    // `any` or `stream_exists`: chained on the revision read now, so a writer in between fails the
    // append; read again. A stream that does not exist (`stream_exists` refused) is no race.
    return retry(async () => this.appendChained(streamId, events, await this.currentRevision(streamId, expected)), {
      attempts: 5,
      retryOn: (error) => error instanceof WrongExpectedRevisionError && error.actual !== 'no_stream',
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events = await this.inner.readStream(streamId, options);
    const chained = options.fromRevision ? await this.legacyChained(streamId, events) : withChain(events);
    const last = chained[chained.length - 1];
    const hash = last && storedHash(last.metadata);
    if (hash) this.remember(streamId, last.revision, hash);
    // Inside an `as_of` read every stream ends at the point (point-in-time.ts).
    return upToPoint(chained).map((e) => upcast(e));
  }

  /**
   * A read from a revision past 0 of a stream older than chains (no stored hash) gets the upcast
   * hashes a read from 0 gives, by chaining from the start up to its last event; other reads are
   * as stored. Only older logs pay it.
   */
  private async legacyChained(streamId: string, events: RecordedEvent[]): Promise<RecordedEvent[]> {
    if (!events.length || storedHash(events[0].metadata)) return events;
    const from = events[0].revision;
    return withChain(await this.inner.readStream(streamId, { maxCount: from + events.length })).slice(from);
  }

  async readAll(options?: { after?: number; limit?: number }): Promise<RecordedEvent[]> {
    return (await this.inner.readAll(options)).map((e) => upcast(e));
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return this.inner.subscribeToAll(options, (event) => handler(upcast(event)));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async appendChained(
    streamId: string,
    events: readonly EventToAppend[],
    expected: number | 'no_stream',
  ): Promise<AppendResult> {
    let previous = expected === 'no_stream' ? GENESIS_HASH : await this.hashAt(streamId, expected);
    const chained = events.map((event) => {
      const metadata = { ...event.metadata, hash: (previous = eventHash(previous, event)) };
      return { ...event, metadata };
    });
    let result: AppendResult;
    try {
      result = await this.inner.append(streamId, chained, expected);
    } catch (error) {
      // Every append of the process passes here: its outcomes are the store's metrics (metrics.ts).
      eventStoreAppends.inc({ outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' });
      throw error;
    }
    eventStoreAppends.inc({ outcome: 'ok' });
    eventStoreAppendedEvents.inc(chained.length);
    this.remember(streamId, result.nextExpectedRevision, previous);
    return result;
  }

  /** The hash of the event at `revision`; a wrong revision yields anything, and the append then fails on it. */
  private async hashAt(streamId: string, revision: number): Promise<string> {
    const known = this.tails.peek(streamId);
    if (known?.revision === revision) return known.hash;
    const [event] = await this.inner.readStream(streamId, { fromRevision: revision });
    const hash = event && storedHash(event.metadata);
    if (hash || !event) return hash ?? GENESIS_HASH;
    const legacy = withChain((await this.inner.readStream(streamId)).slice(0, revision + 1));
    return storedHash(legacy[legacy.length - 1].metadata)!;
  }

  /** `any` and `stream_exists` become the exact revision read, so the hash is chained on it. */
  private async currentRevision(streamId: string, expected: 'any' | 'stream_exists'): Promise<number | 'no_stream'> {
    const events = await this.inner.readStream(streamId);
    if (!events.length && expected === 'stream_exists')
      throw new WrongExpectedRevisionError(streamId, expected, 'no_stream');
    return events.length ? events[events.length - 1].revision : 'no_stream';
  }

  private remember(streamId: string, revision: number, hash: string): void {
    const known = this.tails.peek(streamId);
    if (known && known.revision > revision) return;
    if (!known) this.tailsBytes += tailBytes(streamId);
    // Marked recently written: the oldest tail is the least recently written.
    this.tails.set(streamId, { revision, hash });
    for (let oldest = this.tails.oldest(); this.tailsBytes > TAILS_MAX_BYTES; oldest = this.tails.oldest()) {
      this.tails.delete(oldest!);
      this.tailsBytes -= tailBytes(oldest!);
    }
  }
}
