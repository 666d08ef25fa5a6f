import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import {
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ReadStreamOptions,
  RecordedEvent,
  Subscription,
  SubscribeOptions,
  WrongExpectedRevisionError,
} from './event-store.port';
import { processSignals } from '../log-reader/process-signals';
import type { EventWriter } from './parent-process-writer';
import { pointInTime, withinPoint } from './point-in-time';
import { pollingSubscription } from './polling-subscription';
import { RecentEvents, eventBytes } from './recent-events';
import { SqliteEventWriter, type AppendLane } from './sqlite-event-writer';
import { StreamEnds } from './stream-ends';

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
 * transaction is fsynced, so it survives a power cut. Appends are written by a writer thread with
 * group commit (one fsync for many requests, each still checked against its own expected
 * revision); reads run here on their own connection, which WAL lets proceed during a write.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly writer: EventWriter;
  private readonly recent = new RecentEvents();
  /**
   * Appended events are kept for subscribers of this process only once it has one: the API, which
   * reads nothing of the log in the background, held the last 20 000 events it wrote for nobody
   * (tens of MB of its RSS, issue 20). Until then every read goes to the database, as on a miss.
   */
  private subscribed = false;
  private readonly listeners = new Set<() => void>();
  /** Where streams end, kept once the composition says this process is the log's one writer (stream-ends.ts). */
  private ends: StreamEnds | null = null;
  private closed = false;
  private readonly stmts;
  private readonly offSibling: () => void;

  /** `writer`: who commits (default: a writer thread of this process on `file`). */
  constructor(
    file: string,
    private readonly pollIntervalMs = 100,
    writer?: (onCommitted: () => void) => EventWriter,
  ) {
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
    const wakeSubscriptions = () => this.listeners.forEach((notify) => notify());
    const onCommitted = () => {
      wakeSubscriptions();
      processSignals.appended.notify();
    };
    this.writer = writer ? writer(onCommitted) : new SqliteEventWriter(file, onCommitted);
    // A sibling process on the same file (npm start's API, to its worker) says it appended.
    this.offSibling = processSignals.siblingAppended.on(wakeSubscriptions);
    this.stmts = {
      readStream: this.db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      ),
      readAll: this.db.prepare<[number, number], EventRow>(
        'SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?',
      ),
      head: this.db.prepare<[], { p: number | null }>('SELECT MAX(position) AS p FROM events'),
    };
  }

  append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.appendIn('own', streamId, events, expected);
  }

  /** A sibling process's append (npm start's worker, over IPC): committed after this process's own. */
  appendBehind(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.appendIn('behind', streamId, events, expected);
  }

  /**
   * Said by `npm start`'s composition (api-with-worker.ts), where this process commits every append
   * of the file, its worker's included: a read past a stream's known end is answered without SQLite.
   */
  trustStreamEnds(): void {
    this.ends ??= new StreamEnds();
  }

  /** Appends accepted and not committed yet, per lane; zeros when the writer does not say. */
  get pendingAppends(): Record<AppendLane, number> {
    return this.writer.pending ?? { own: 0, behind: 0 };
  }

  private appendIn(
    lane: AppendLane,
    streamId: string,
    events: readonly EventToAppend[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('event store is closed'));
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return this.writer.write(streamId, events, expected, lane).then(
      (result) => this.appended(streamId, events, result),
      (error: unknown) => {
        // Someone else wrote the stream after all: its end is read from the database again.
        if (error instanceof WrongExpectedRevisionError) this.ends?.forget(streamId);
        throw error;
      },
    );
  }

  private appended(streamId: string, events: readonly EventToAppend[], result: AppendResult): AppendResult {
    this.ends?.raise(streamId, result.nextExpectedRevision);
    if (!this.subscribed) return result;
    // One append's rows get consecutive positions and revisions, ending at the ones returned.
    // Events are immutable values, so readers share the objects the writer was given.
    const first = events.length - 1;
    this.recent.remember(
      events.map((event, i) => ({
        id: event.metadata.event_id,
        streamId,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        revision: result.nextExpectedRevision - first + i,
        position: result.position - first + i,
      })),
    );
    return result;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const point = pointInTime();
    const from = options.fromRevision ?? 0;
    const range = [streamId, from, options.maxCount ?? -1] as const;
    if (!point) {
      const end = this.ends?.get(streamId);
      if (end !== undefined && end < from) return [];
      const events = this.stmts.readStream.all(...range).map(toRecorded);
      this.ends?.learnFromRead(streamId, from, options.maxCount, events);
      return events;
    }
    // Inside an `as_of` read the stream ends at the point: the rows after it are never read (an early point costs its prefix only).
    const events: RecordedEvent[] = [];
    for (const row of this.stmts.readStream.iterate(...range)) {
      const event = toRecorded(row);
      if (!withinPoint(event, point)) break;
      events.push(event);
    }
    return events;
  }

  async readAll(options: { after?: number; limit?: number } = {}): Promise<RecordedEvent[]> {
    const [after, limit] = [options.after ?? 0, options.limit ?? 1000];
    const recent = this.recent.after(after, limit);
    if (recent.length) return recent;
    const rows = this.stmts.readAll.all(after, limit);
    const read = rows.map(toRecorded);
    // A short page is the log's head: every other subscriber is about to ask for the same events
    // (another process appended them, so they are not held yet). A catch-up page is not kept.
    if (read.length < limit)
      this.recent.remember(
        read,
        rows.map((row, i) => eventBytes(read[i], row.data.length, row.metadata.length)),
      );
    return read;
  }

  async headPosition(): Promise<number> {
    return this.stmts.head.get()?.p ?? 0;
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    this.subscribed = true;
    return pollingSubscription({
      readAfter: (after) => this.readAll({ after, limit: 500 }),
      onAppend: (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      // Other processes append too: poll as a fallback to the in-process and sibling signals.
      pollIntervalMs: this.pollIntervalMs,
      after: options.after ?? 0,
      onError: options.onError,
      handler,
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.offSibling();
    await this.writer.close();
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
