import { Worker } from 'node:worker_threads';
import type { EventWriter } from './parent-process-writer';
import { PAGE_CACHE_KIB } from '../sqlite/open-sqlite';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventToAppend,
  type ExpectedRevision,
} from './event-store.port';

/** `own`: this process's appends; `behind`: a sibling's (npm start's worker), committed after them. */
export type AppendLane = 'own' | 'behind';

interface PendingAppend {
  readonly lane: AppendLane;
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
// No journal_mode here: the store opened the file in WAL mode first (openSqlite), and the mode is the file's.
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -${PAGE_CACHE_KIB}');
const lastRevision = db.prepare('SELECT MAX(revision) AS r FROM events WHERE stream_id = ?');
const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
const matches = (expected, last) =>
  expected === 'any' || (expected === 'no_stream' ? last === -1 : expected === 'stream_exists' ? last >= 0 : expected === last);
// One savepoint per append: a conflict or failure rolls back that append alone.
// Except when SQLite rolled back the whole transaction itself (SQLITE_FULL or SQLITE_IOERR while a
// large batch spills pages to the WAL): then nothing of the batch is written, and the appends after
// it must not run outside the transaction (each would commit on its own and then be answered as
// failed), so the batch fails as a whole (issue 23, test/faults/disk-full.e2e.spec.ts).
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
    try { return one(a); } catch (err) {
      if (!db.inTransaction) throw err;
      return { error: String((err && err.message) || err) };
    }
  }),
);
parentPort.on('message', (msg) => {
  if (msg.close) { db.close(); parentPort.postMessage({ closed: true }); return; }
  // IMMEDIATE takes the write lock before revisions are read, so another process cannot slip in.
  try { parentPort.postMessage({ outcomes: batch.immediate(msg.appends) }); }
  catch (err) { parentPort.postMessage({ failure: String((err && err.message) || err) }); }
});
`;

/** Appends in one transaction at most: a larger backlog is committed in several, own lane first. */
const MAX_BATCH = 512;
/** While a sibling's appends wait, at least this share of each batch is theirs, so they never starve. */
const BEHIND_SHARE = 8;

/**
 * Group commit across a thread boundary: one batch is in the writer at a time, and every append
 * that arrives meanwhile joins the next batch, so the busier the store, the more appends share
 * one fsync. An append resolves only after its batch is committed and synced.
 *
 * Two lanes: this process's own appends (the API's requests) fill each batch first; a sibling's
 * (npm start's worker, over IPC) take what is left, and at least an eighth of a full batch, so
 * under load the requests' commits do not queue behind background work.
 */
export class SqliteEventWriter implements EventWriter {
  private readonly worker: Worker;
  private readonly queues: Record<AppendLane, PendingAppend[]> = { own: [], behind: [] };
  private inFlight: PendingAppend[] | null = null;
  private drained: Array<() => void> = [];
  private broken: Error | null = null;

  constructor(
    file: string,
    private readonly onCommitted: () => void,
  ) {
    this.worker = new Worker(WRITER_SOURCE, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3') },
    });
    this.worker.on('message', (msg) => this.onMessage(msg));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.unref();
  }

  write(
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
    lane: AppendLane = 'own',
  ): Promise<AppendResult> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queues[lane].push({ lane, streamId, events, expected, resolve, reject });
      if (!this.inFlight) this.send();
    });
  }

  /** Appends accepted and not yet committed, per lane (the API's overload check reads it). */
  get pending(): Record<AppendLane, number> {
    const inFlight = this.inFlight ?? [];
    const own = inFlight.filter((p) => p.lane === 'own').length;
    return { own: this.queues.own.length + own, behind: this.queues.behind.length + inFlight.length - own };
  }

  private get queued(): number {
    return this.queues.own.length + this.queues.behind.length;
  }

  private send(): void {
    const { own, behind } = this.queues;
    const behindTaken = Math.min(
      behind.length,
      Math.max(MAX_BATCH - own.length, behind.length ? Math.ceil(MAX_BATCH / BEHIND_SHARE) : 0),
    );
    const ownTaken = Math.min(own.length, MAX_BATCH - behindTaken);
    const batch = [...own.splice(0, ownTaken), ...behind.splice(0, behindTaken)];
    this.inFlight = batch;
    // Keep the process alive while a batch is being committed; an idle writer holds nothing.
    this.worker.ref();
    this.worker.postMessage({
      appends: batch.map((a) => ({
        streamId: a.streamId,
        expected: a.expected,
        events: a.events.map((e) => ({
          id: e.metadata.event_id,
          type: e.type,
          data: JSON.stringify(e.data),
          metadata: JSON.stringify(e.metadata),
        })),
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
        else if ('conflict' in outcome)
          p.reject(
            new WrongExpectedRevisionError(
              p.streamId,
              p.expected,
              outcome.actual === -1 ? 'no_stream' : outcome.actual,
            ),
          );
        else p.resolve(outcome);
      });
    if (msg.outcomes?.some((o) => !('error' in o) && !('conflict' in o))) this.onCommitted();
    if (this.queued) this.send();
    else {
      this.worker.unref();
      this.drained.splice(0).forEach((resolve) => resolve());
    }
  }

  private fail(error: Error): void {
    this.broken = error;
    [...(this.inFlight ?? []), ...this.queues.own, ...this.queues.behind].forEach((p) => p.reject(error));
    this.inFlight = null;
    this.queues.own = [];
    this.queues.behind = [];
    this.drained.splice(0).forEach((resolve) => resolve());
  }

  /** Commits what was already accepted, then stops the thread. */
  async close(): Promise<void> {
    if (this.inFlight || this.queued) await new Promise<void>((resolve) => this.drained.push(resolve));
    if (!this.broken) {
      // The idle thread is unref'd: without this, a process with nothing else to do would exit
      // before the thread answers, and whatever follows `await close()` would never run.
      this.worker.ref();
      const closed = new Promise<void>((resolve) => this.worker.once('message', () => resolve()));
      this.worker.postMessage({ close: true });
      await closed;
    }
    await this.worker.terminate();
  }
}
