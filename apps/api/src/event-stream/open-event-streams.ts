import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

/** The settings of `GET /events/stream`; tests shorten the heartbeat. */
@Injectable()
export class EventStreamSettings {
  /** A comment every this many ms on a quiet stream; `listen` takes 3 missed ones for a dead connection. */
  heartbeatMs = 15_000;
}

/**
 * The streams this process serves, so a shutdown ends them (a client reconnects to another
 * process with `Last-Event-ID`) rather than waiting on them: the HTTP server closes only once
 * every response has ended.
 */
@Injectable()
export class OpenEventStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<() => Promise<void>>();

  get size(): number {
    return this.open.size;
  }

  /** Registers a stream's end; returns its unregister function. */
  add(end: () => Promise<void>): () => void {
    this.open.add(end);
    return () => this.open.delete(end);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.open].map((end) => end().catch(() => undefined)));
    this.open.clear();
  }
}
