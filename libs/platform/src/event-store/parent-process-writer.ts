import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
} from './event-store.port';
import type { AppendLane } from './sqlite-event-writer';

/** How the SQLite event store commits: its own writer thread, or another process's. */
export interface EventWriter {
  write(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    lane?: AppendLane,
  ): Promise<AppendResult>;
  /** Appends accepted and not committed yet, per lane. */
  readonly pending?: Record<AppendLane, number>;
  /** Settles what was accepted, then lets go. */
  close(): Promise<void>;
}

export interface AppendRequest {
  readonly type: 'append';
  readonly id: number;
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly events: readonly EventToAppend[];
}

export interface AppendReply {
  readonly type: 'append-result';
  readonly id: number;
  readonly result?: AppendResult;
  readonly conflict?: { readonly actual: number | 'no_stream' };
  readonly error?: string;
}

interface Pending {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type Channel = Pick<NodeJS.Process, 'send' | 'on' | 'off' | 'connected'>;

/**
 * The worker that `npm start` supervises commits through the API process's writer, over their IPC
 * channel: one writer per log file, so the two never wait on each other's SQLite write lock
 * (SQLite's busy handler sleeps in steps of milliseconds), and the worker's appends join the API's
 * group commits, behind the API's own. An append resolves once the API has committed and synced it.
 *
 * At most `maxInFlight` appends are sent at once; the rest wait here, in the worker, so the API
 * holds a bounded number of the worker's appends however much the process managers have to do.
 */
export class ParentProcessWriter implements EventWriter {
  private nextId = 0;
  private readonly awaiting = new Map<number, Pending>();
  private readonly inFlight = new Set<Promise<AppendResult>>();
  private readonly waiting: Array<() => void> = [];
  private sent = 0;
  private readonly onMessage = (message: AppendReply) => this.settle(message);
  private readonly onDisconnect = () => this.failAll(new Error('the API process that commits the log has gone'));

  constructor(
    private readonly onCommitted: () => void,
    private readonly channel: Channel = process,
    private readonly maxInFlight = 64,
  ) {
    channel.on('message', this.onMessage);
    channel.on('disconnect', this.onDisconnect);
  }

  get pending(): { own: number; behind: number } {
    return { own: this.sent + this.waiting.length, behind: 0 };
  }

  write(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (!this.channel.connected || !this.channel.send)
      return Promise.reject(new Error('no API process to commit the log through'));
    const send = () =>
      new Promise<AppendResult>((resolve, reject) => {
        if (!this.channel.connected || !this.channel.send)
          return reject(new Error('no API process to commit the log through'));
        const id = ++this.nextId;
        this.awaiting.set(id, { streamId, expected, resolve, reject });
        const request: AppendRequest = { type: 'append', id, streamId, expected, events };
        this.channel.send(
          request,
          undefined,
          undefined,
          (err) => err && this.settle({ type: 'append-result', id, error: err.message }),
        );
      });
    // Sent at once while under the bound; otherwise when an earlier append has its answer.
    const written = this.sent < this.maxInFlight ? (this.sent++, send()) : this.slot().then(send);
    const release = () => {
      this.sent--;
      this.waiting.shift()?.();
    };
    const tracked = written.finally(release);
    this.inFlight.add(tracked);
    const forget = () => void this.inFlight.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  /** Resolves when an append sent earlier has its answer; counts this one in. */
  private slot(): Promise<void> {
    return new Promise<void>((resolve) =>
      this.waiting.push(() => {
        this.sent++;
        resolve();
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.channel.off('message', this.onMessage);
    this.channel.off('disconnect', this.onDisconnect);
  }

  private settle(reply: AppendReply): void {
    if (reply?.type !== 'append-result') return;
    const pending = this.awaiting.get(reply.id);
    if (!pending) return;
    this.awaiting.delete(reply.id);
    if (reply.result) {
      pending.resolve(reply.result);
      this.onCommitted();
    } else if (reply.conflict)
      pending.reject(new WrongExpectedRevisionError(pending.streamId, pending.expected, reply.conflict.actual));
    else pending.reject(new Error(reply.error ?? 'append failed'));
  }

  private failAll(error: Error): void {
    for (const [id, pending] of this.awaiting) {
      this.awaiting.delete(id);
      pending.reject(error);
    }
  }
}

/** An adapter that commits a sibling's appends behind its own (SqliteEventStore). */
interface AppendsBehind {
  appendBehind(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
}

/**
 * The adapter under the product's wrappers (hash chain, shared tail), where a sibling's appends are
 * committed: they arrive chained already, in the stored form. Made by the platform module
 * (adapters.ts, createStoredEventStore) and given to the wrappers it builds around it.
 */
export const STORED_EVENT_STORE = Symbol('STORED_EVENT_STORE');

/** The API's side: commits a sibling's append with its own store (the stored form: already chained), behind its own appends. */
export async function answerAppend(store: EventStore, request: AppendRequest): Promise<AppendReply> {
  try {
    const behind = (store as Partial<AppendsBehind>).appendBehind;
    const result = behind
      ? await behind.call(store, request.streamId, request.events, request.expected)
      : await store.append(request.streamId, request.events, request.expected);
    return { type: 'append-result', id: request.id, result };
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError)
      return { type: 'append-result', id: request.id, conflict: { actual: error.actual } };
    return { type: 'append-result', id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}
