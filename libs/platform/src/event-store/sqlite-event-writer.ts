import { Worker } from 'node:worker_threads';
import type { EventWriter } from './parent-process-writer';
import { WrongExpectedRevisionError, type AppendResult, type EventToAppend, type ExpectedRevision } from './event-store.port';

interface PendingAppend {
  readonly streamId: string;
  readonly events: readonly EventToAppend[];
  readonly expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type Outcome = AppendResult | { conflict: true; actual: number } | { error: string };

/**
 * The writer runs on its own thread because better-sqlite3 is synchronous: with
 * synchronous=FULL every commit waits for fsync, which on the main thread stalls every request.
 * It is plain JavaScript evaluated in the worker, so it runs the same under ts-jest and from
 * dist. The revision rule repeats `revisionMatches` of the port, inside the write transaction.
 */
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const lastRevision = db.prepare('SELECT MAX(revision) AS r FROM events WHERE stream_id = ?');
const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
const matches = (expected, last) =>
  expected === 'any' || (expected === 'no_stream' ? last === -1 : expected === 'stream_exists' ? last >= 0 : expected === last);
// One savepoint per append: a conflict or failure rolls back that append alone.
const one = db.transaction((a) => {
  const last = lastRevision.get(a.streamId).r ?? -1;
  if (!matches(a.expected, last)) return { conflict: true, actual: last };
  let revision = last;
  let position = 0;
  for (const e of a.events) {
    revision += 1;
    position = Number(insert.run(a.streamId, revision, e.id, e.type, e.data, e.metadata).lastInsertRowid);
  }
  return { nextExpectedRevision: revision, position };
});
const batch = db.transaction((appends) =>
  appends.map((a) => {
    try { return one(a); } catch (err) { return { error: String((err && err.message) || err) }; }
  }),
);
parentPort.on('message', (msg) => {
  if (msg.close) { db.close(); parentPort.postMessage({ closed: true }); return; }
  // IMMEDIATE takes the write lock before revisions are read, so another process cannot slip in.
  try { parentPort.postMessage({ outcomes: batch.immediate(msg.appends) }); }
  catch (err) { parentPort.postMessage({ failure: String((err && err.message) || err) }); }
});
`;

/**
 * Group commit across a thread boundary: one batch is in the writer at a time, and every append
 * that arrives meanwhile joins the next batch, so the busier the store, the more appends share
 * one fsync. An append resolves only after its batch is committed and synced.
 */
export class SqliteEventWriter implements EventWriter {
  private readonly worker: Worker;
  private queue: PendingAppend[] = [];
  private inFlight: PendingAppend[] | null = null;
  private drained: Array<() => void> = [];
  private broken: Error | null = null;

  constructor(
    file: string,
    private readonly onCommitted: () => void,
  ) {
    this.worker = new Worker(WRITER_SOURCE, { eval: true, workerData: { file, driver: require.resolve('better-sqlite3') } });
    this.worker.on('message', (msg) => this.onMessage(msg));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.unref();
  }

  write(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ streamId, events, expected, resolve, reject });
      if (!this.inFlight) this.send();
    });
  }

  private send(): void {
    const batch = this.queue;
    this.queue = [];
    this.inFlight = batch;
    // Keep the process alive while a batch is being committed; an idle writer holds nothing.
    this.worker.ref();
    this.worker.postMessage({
      appends: batch.map((a) => ({
        streamId: a.streamId,
        expected: a.expected,
        events: a.events.map((e) => ({ id: e.metadata.event_id, type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) })),
      })),
    });
  }

  private onMessage(msg: { outcomes?: Outcome[]; failure?: string; closed?: boolean }): void {
    if (msg.closed) return;
    const batch = this.inFlight ?? [];
    this.inFlight = null;
    if (msg.failure) batch.forEach((p) => p.reject(new Error(msg.failure)));
    else
      batch.forEach((p, i) => {
        const outcome = msg.outcomes![i];
        if ('error' in outcome) p.reject(new Error(outcome.error));
        else if ('conflict' in outcome) p.reject(new WrongExpectedRevisionError(p.streamId, p.expected, outcome.actual === -1 ? 'no_stream' : outcome.actual));
        else p.resolve(outcome);
      });
    if (msg.outcomes?.some((o) => !('error' in o) && !('conflict' in o))) this.onCommitted();
    if (this.queue.length) this.send();
    else {
      this.worker.unref();
      this.drained.splice(0).forEach((resolve) => resolve());
    }
  }

  private fail(error: Error): void {
    this.broken = error;
    [...(this.inFlight ?? []), ...this.queue].forEach((p) => p.reject(error));
    this.inFlight = null;
    this.queue = [];
    this.drained.splice(0).forEach((resolve) => resolve());
  }

  /** Commits what was already accepted, then stops the thread. */
  async close(): Promise<void> {
    if (this.inFlight || this.queue.length) await new Promise<void>((resolve) => this.drained.push(resolve));
    if (!this.broken) {
      const closed = new Promise<void>((resolve) => this.worker.once('message', () => resolve()));
      this.worker.postMessage({ close: true });
      await closed;
    }
    await this.worker.terminate();
  }
}
