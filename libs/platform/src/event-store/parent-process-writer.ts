import { WrongExpectedRevisionError, type AppendResult, type EventStore, type EventToAppend, type ExpectedRevision } from './event-store.port';

/** How the SQLite event store commits: its own writer thread, or another process's. */
export interface EventWriter {
  write(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
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
 * The readers process that `npm start` forks commits through the API process's writer, over their
 * IPC channel: one writer per log file, so the two never wait on each other's SQLite write lock
 * (SQLite's busy handler sleeps in steps of milliseconds), and the readers' appends join the API's
 * group commits. An append resolves once the API has committed and synced it.
 */
export class ParentProcessWriter implements EventWriter {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly inFlight = new Set<Promise<AppendResult>>();
  private readonly onMessage = (message: AppendReply) => this.settle(message);
  private readonly onDisconnect = () => this.failAll(new Error('the API process that commits the log has gone'));

  constructor(
    private readonly onCommitted: () => void,
    private readonly channel: Channel = process,
  ) {
    channel.on('message', this.onMessage);
    channel.on('disconnect', this.onDisconnect);
  }

  write(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (!this.channel.connected || !this.channel.send) return Promise.reject(new Error('no API process to commit the log through'));
    const id = ++this.nextId;
    const written = new Promise<AppendResult>((resolve, reject) => {
      this.pending.set(id, { streamId, expected, resolve, reject });
      const request: AppendRequest = { type: 'append', id, streamId, expected, events };
      this.channel.send!(request, undefined, undefined, (err) => err && this.settle({ type: 'append-result', id, error: err.message }));
    });
    this.inFlight.add(written);
    const forget = () => void this.inFlight.delete(written);
    written.then(forget, forget);
    return written;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.channel.off('message', this.onMessage);
    this.channel.off('disconnect', this.onDisconnect);
  }

  private settle(reply: AppendReply): void {
    if (reply?.type !== 'append-result') return;
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.result) {
      pending.resolve(reply.result);
      this.onCommitted();
    } else if (reply.conflict) pending.reject(new WrongExpectedRevisionError(pending.streamId, pending.expected, reply.conflict.actual));
    else pending.reject(new Error(reply.error ?? 'append failed'));
  }

  private failAll(error: Error): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(error);
    }
  }
}

/** The API's side: commits a sibling's append with its own store (the stored form: already chained). */
export async function answerAppend(store: EventStore, request: AppendRequest): Promise<AppendReply> {
  try {
    return { type: 'append-result', id: request.id, result: await store.append(request.streamId, request.events, request.expected) };
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return { type: 'append-result', id: request.id, conflict: { actual: error.actual } };
    return { type: 'append-result', id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}
