import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import {
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  RecordedEvent,
  Subscription,
  SubscribeOptions,
  WrongExpectedRevisionError,
  revisionMatches,
} from './event-store.port';
import { pollingSubscription } from './polling-subscription';

interface PendingAppend {
  streamId: string;
  events: readonly EventToAppend[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

/**
 * Embedded event store. WAL with synchronous=FULL: an append is acknowledged only after its
 * transaction is fsynced, so it survives a power cut. Appends issued in the same tick are
 * committed together (group commit): one fsync for many requests, each still checked against
 * its own expected revision.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private readonly stmts;

  constructor(file: string, private readonly pollIntervalMs = 100) {
    this.db = openSqlite(file, 'durable');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position  INTEGER PRIMARY KEY AUTOINCREMENT,
        stream_id TEXT NOT NULL,
        revision  INTEGER NOT NULL,
        event_id  TEXT NOT NULL UNIQUE,
        type      TEXT NOT NULL,
        data      TEXT NOT NULL,
        metadata  TEXT NOT NULL,
        UNIQUE (stream_id, revision)
      );
    `);
    this.stmts = {
      lastRevision: this.db.prepare<[string], { r: number | null }>('SELECT MAX(revision) AS r FROM events WHERE stream_id = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      readStream: this.db.prepare<[string, number], EventRow>('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision'),
      readAll: this.db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: this.db.prepare<[], { p: number | null }>('SELECT MAX(position) AS p FROM events'),
    };
  }

  append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('event store is closed'));
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise((resolve, reject) => {
      this.queue.push({ streamId, events, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0 || !this.db.open) return;
    const outcomes: unknown[] = [];
    // Each append gets its own savepoint (a nested transaction), so one that fails for any
    // reason is rolled back and rejected alone while the rest of the batch still commits.
    const one = this.db.transaction((pending: PendingAppend) => this.appendInTransaction(pending));
    const commit = this.db.transaction(() => {
      for (const pending of batch) {
        try {
          outcomes.push(one(pending));
        } catch (error) {
          outcomes.push(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
    try {
      // IMMEDIATE takes the write lock before reading revisions, so another process appending to
      // the same file cannot slip in between the check and the insert.
      commit.immediate();
    } catch (error) {
      batch.forEach((p) => p.reject(error));
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof Error) p.reject(outcome);
      else p.resolve(outcome as AppendResult);
    });
    if (outcomes.some((o) => !(o instanceof Error))) this.listeners.forEach((notify) => notify());
  }

  private appendInTransaction({ streamId, events, expected }: PendingAppend): AppendResult {
    const last = this.stmts.lastRevision.get(streamId)?.r ?? -1;
    if (!revisionMatches(expected, last)) {
      throw new WrongExpectedRevisionError(streamId, expected, last === -1 ? 'no_stream' : last);
    }
    let revision = last;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const info = this.stmts.insert.run(
        streamId,
        revision,
        event.metadata.event_id,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      );
      position = Number(info.lastInsertRowid);
    }
    return { nextExpectedRevision: revision, position };
  }

  async readStream(streamId: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    return this.stmts.readStream.all(streamId, options.fromRevision ?? 0).map(toRecorded);
  }

  async readAll(options: { after?: number; limit?: number } = {}): Promise<RecordedEvent[]> {
    return this.stmts.readAll.all(options.after ?? 0, options.limit ?? 1000).map(toRecorded);
  }

  async headPosition(): Promise<number> {
    return this.stmts.head.get()?.p ?? 0;
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return pollingSubscription({
      readAfter: (after) => this.readAll({ after, limit: 500 }),
      onAppend: (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      // Other processes (a separate projector) append too: poll as a fallback to the in-process signal.
      pollIntervalMs: this.pollIntervalMs,
      after: options.after ?? 0,
      onError: options.onError,
      handler,
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.queue.length) this.flush();
    this.db.close();
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    revision: row.revision,
    position: row.position,
  };
}
