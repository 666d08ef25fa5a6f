import type { Response } from 'express';

/** One Server-Sent Event: `id` only when a client may resume from it. */
export interface SseMessage {
  readonly id?: number;
  readonly event: string;
  readonly data: unknown;
}

/** How long a client waits before reconnecting (the SSE `retry:` field), in ms. */
export const RETRY_MS = 2_000;

/**
 * Server-Sent Events over one Express response (https://html.spec.whatwg.org/multipage/server-sent-events.html).
 * Every write waits for the socket to take it (or for the client to be gone), so a slow client
 * holds back its own stream only. `id:` is a log position a client resumes from
 * (`Last-Event-ID`): it is written only once everything of the log up to it has been handed on,
 * and heartbeats carry it forward over events of other worlds, so a resumed stream does not scan
 * them again.
 */
export class SseResponse {
  /** Resolves when the client is gone or the response ended. */
  readonly closed: Promise<void>;
  private timer: NodeJS.Timeout | null = null;
  private writing = 0;
  /** The one wait for `drain` every write past a full buffer shares. */
  private drained: Promise<void> | null = null;
  /** The writes waiting for the socket to drain, released by `end`. */
  private readonly waiting = new Set<() => void>();
  /** The last position written as an `id:`, and the position everything up to has been handed on. */
  private lastId = -1;
  private scanned = 0;

  constructor(private readonly res: Response) {
    this.closed = new Promise((resolve) => res.once('close', () => resolve()));
  }

  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** The status line and headers, the client's retry delay, then `ready` with `hello` as data. */
  async open(after: number, hello: Record<string, unknown>, heartbeatMs: number): Promise<void> {
    this.res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      // Proxies (nginx) must pass each event on as it comes.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    this.res.socket?.setNoDelay(true);
    this.res.flushHeaders();
    this.scanned = after;
    await this.message({ id: after, event: 'ready', data: hello }, `retry: ${RETRY_MS}\n`);
    this.timer = setInterval(() => this.heartbeat(), heartbeatMs);
    this.timer.unref();
  }

  /** One event; `id` only when a client may resume from it. */
  message(m: SseMessage, prefix = ''): Promise<void> {
    return this.write(prefix + this.frame(m));
  }

  /** Several events in one write: one chunk and one system call for a batch, not one per event. */
  messages(list: readonly SseMessage[]): Promise<void> {
    return list.length ? this.write(list.map((m) => this.frame(m)).join('')) : Promise.resolve();
  }

  private frame(m: SseMessage): string {
    if (m.id !== undefined) this.lastId = Math.max(this.lastId, m.id);
    const id = m.id === undefined ? '' : `id: ${m.id}\n`;
    // JSON.stringify escapes line breaks, so the data is one line.
    return `${id}event: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
  }

  /** Everything of the log up to `position` is handed on. */
  progress(position: number): void {
    this.scanned = Math.max(this.scanned, position);
  }

  /**
   * A comment keeps proxies and the client's watchdog from taking a quiet stream for a dead one;
   * with an `id:` (and no data, so no event is dispatched) when the stream read past events of
   * other worlds since the last one. Skipped while a write waits on the socket.
   */
  heartbeat(): void {
    if (this.writing || this.gone) return;
    const id = this.scanned > this.lastId ? `id: ${this.scanned}\n` : '';
    this.lastId = Math.max(this.lastId, this.scanned);
    void this.write(`: heartbeat\n${id}\n`);
  }

  /**
   * Ends the response; writes still waiting on the socket give up (the stream handing them on
   * stops). A client that does not read what is left within a second is cut off, so a shutdown
   * never waits on it.
   */
  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const release of [...this.waiting]) release();
    if (this.gone) return;
    this.res.end();
    const cut = setTimeout(() => this.res.destroy(), 1_000);
    cut.unref();
    this.res.once('close', () => clearTimeout(cut));
  }

  /**
   * Writes the chunk; resolves once the socket takes more. A batch is written without awaiting in
   * between, so every write past a full buffer shares one wait for `drain` (one listener each for
   * `drain` and `close`, not one per write: hundreds of them warned of a listener leak).
   */
  private write(chunk: string): Promise<void> {
    if (this.gone) return Promise.resolve();
    if (this.res.write(chunk) && !this.drained) return Promise.resolve();
    return (this.drained ??= this.waitForDrain());
  }

  private waitForDrain(): Promise<void> {
    this.writing++;
    return new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.waiting.delete(done);
        this.writing--;
        this.drained = null;
        resolve();
      };
      this.waiting.add(done);
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}
