import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { WalSync } from '../sqlite/wal-sync';
import { checkpointInBackground } from '../sqlite/background-checkpoints';
import {
  HANDOFF_GRACE_MS,
  PAUSED,
  type AttemptLog,
  type AttemptLogFilter,
  type AttemptLogPage,
  type AttemptOutcome,
  type CancelReason,
  type Delivery,
  type DeliveryStats,
  type DeliveryStore,
  type NewDelivery,
  type ResendOutcome,
} from './delivery-store.port';

interface DeliveryRow {
  id: string;
  organization_id: string;
  mode: Delivery['mode'];
  entity_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  test: number;
  payload: string;
  resource: string | null;
  position: number | null;
  seq: number | null;
  scheduled: number;
  due_at: number;
  status: Delivery['status'];
  attempts: number;
  head: number;
  finished_at: number | null;
  cancel_reason: CancelReason | null;
  trace_id: string | null;
  resend_of: string | null;
  retry_base: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS deliveries (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL, mode TEXT NOT NULL, entity_id TEXT NOT NULL, webhook_id TEXT NOT NULL,
    event_id TEXT NOT NULL, event TEXT NOT NULL, test INTEGER NOT NULL, payload TEXT NOT NULL,
    resource TEXT, position INTEGER, seq INTEGER,
    scheduled INTEGER NOT NULL, due_at INTEGER NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL,
    head INTEGER NOT NULL, finished_at INTEGER, cancel_reason TEXT, trace_id TEXT
  );
  -- The scheduler's look: heads only, by due time; a queue waiting behind a retry costs nothing.
  CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (due_at) WHERE head = 1;
  -- A queue's first pending delivery.
  CREATE INDEX IF NOT EXISTS deliveries_queue ON deliveries (webhook_id, resource, position, seq) WHERE status = 'pending';
  CREATE TABLE IF NOT EXISTS attempt_logs (
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL,
    organization_id TEXT NOT NULL, mode TEXT NOT NULL, entity_id TEXT NOT NULL,
    webhook_id TEXT NOT NULL, event TEXT NOT NULL, status TEXT NOT NULL,
    entry TEXT NOT NULL,
    UNIQUE (delivery_id, attempt)
  );
  CREATE INDEX IF NOT EXISTS attempt_logs_entity ON attempt_logs (organization_id, mode, entity_id, id);
  CREATE INDEX IF NOT EXISTS attempt_logs_webhook ON attempt_logs (organization_id, mode, entity_id, webhook_id, id);
  CREATE INDEX IF NOT EXISTS attempt_logs_event ON attempt_logs (organization_id, mode, entity_id, event, id);
  CREATE INDEX IF NOT EXISTS attempt_logs_status ON attempt_logs (organization_id, mode, entity_id, status, id);
  -- Log entries are immutable: inserted once, never changed or removed.
  CREATE TRIGGER IF NOT EXISTS attempt_logs_no_update BEFORE UPDATE ON attempt_logs BEGIN SELECT RAISE(ABORT, 'webhook attempt logs are immutable'); END;
  CREATE TRIGGER IF NOT EXISTS attempt_logs_no_delete BEFORE DELETE ON attempt_logs BEGIN SELECT RAISE(ABORT, 'webhook attempt logs are immutable'); END;
  CREATE TABLE IF NOT EXISTS webhook_stats (
    webhook_id TEXT PRIMARY KEY, total INTEGER NOT NULL, succeeded INTEGER NOT NULL, failed INTEGER NOT NULL,
    last_delivery_at INTEGER, last_response_status INTEGER
  );
  CREATE TABLE IF NOT EXISTS markers (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Columns added after the first release: a file from before gets them (null or 0: what older rows meant). */
const ADDED_COLUMNS: ReadonlyArray<readonly [table: string, column: string, type: string]> = [
  ['deliveries', 'trace_id', 'TEXT'],
  ['deliveries', 'resend_of', 'TEXT'],
  ['deliveries', 'retry_base', 'INTEGER NOT NULL DEFAULT 0'],
  ['webhook_stats', 'last_success_at', 'INTEGER'],
  ['webhook_stats', 'failing_since', 'INTEGER'],
];

/** Indexes on added columns, made once the columns exist. */
const LATER_INDEXES = `
  -- A delivery's resends (decisions §15), for their numbering and for recover.
  CREATE INDEX IF NOT EXISTS deliveries_resends ON deliveries (resend_of, retry_base) WHERE resend_of IS NOT NULL;
  -- recover: a webhook's failed deliveries by when they were scheduled.
  CREATE INDEX IF NOT EXISTS deliveries_failed ON deliveries (webhook_id, scheduled) WHERE status = 'failed' AND resend_of IS NULL;
`;

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  organization_id: r.organization_id,
  mode: r.mode,
  entity_id: r.entity_id,
  webhook_id: r.webhook_id,
  event_id: r.event_id,
  event: r.event,
  test: r.test === 1,
  payload: r.payload,
  queue: r.resource === null ? null : { resource: r.resource, position: r.position!, seq: r.seq! },
  scheduled: r.scheduled,
  due_at: r.due_at,
  status: r.status,
  attempts: r.attempts,
  head: r.head === 1,
  finished_at: r.finished_at,
  cancel_reason: r.cancel_reason,
  ...(r.trace_id ? { trace_id: r.trace_id } : {}),
  ...(r.resend_of ? { resend_of: r.resend_of } : {}),
  ...(r.retry_base ? { retry_base: r.retry_base } : {}),
});

const toRow = (d: Delivery): DeliveryRow => {
  const { queue, test, head, ...rest } = d;
  return {
    ...rest,
    test: test ? 1 : 0,
    head: head ? 1 : 0,
    resource: queue?.resource ?? null,
    position: queue?.position ?? null,
    seq: queue?.seq ?? null,
    trace_id: d.trace_id ?? null,
    resend_of: d.resend_of ?? null,
    retry_base: d.retry_base ?? 0,
  };
};

/**
 * The delivery store in its own file in DATA_DIR (`deliveries.db`), which every process on the
 * machine may open: each claim is one conditional UPDATE … RETURNING and each multi-row change an
 * IMMEDIATE transaction, so processes coordinate through SQLite's write lock. Durable: the attempt
 * logs exist nowhere else, so a write resolves only once its commit is fsynced, but the fsync is
 * one of the WAL on libuv's thread pool, shared by the writes made meanwhile (`WalSync`), never a
 * stall of the worker's event loop per commit.
 */
export class SqliteDeliveryStore implements DeliveryStore {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly tx;
  private readonly wal: WalSync;
  /** Started by the first write: WAL checkpoints on a thread, not on a commit (background-checkpoints.ts). */
  private releaseCheckpoints: (() => Promise<void>) | null = null;
  /** One prepared statement per combination of log filters (at most 16). */
  private readonly listings = new Map<string, Database.Statement>();

  constructor(private readonly file: string) {
    this.db = openSqlite(file, 'durable');
    this.wal = new WalSync(this.db, file);
    this.db.exec(SCHEMA);
    // Another process opening the file at the same moment may add a column first: the same outcome.
    for (const [table, column, type] of ADDED_COLUMNS) {
      if ((this.db.pragma(`table_info(${table})`) as Array<{ name: string }>).some((c) => c.name === column)) continue;
      try {
        this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
      } catch (error) {
        if (!/duplicate column/i.test((error as Error).message)) throw error;
      }
    }
    this.db.exec(LATER_INDEXES);
    const db = this.db;
    this.stmts = {
      insert: db.prepare<DeliveryRow>(
        `INSERT INTO deliveries (id, organization_id, mode, entity_id, webhook_id, event_id, event, test, payload, resource, position, seq, scheduled, due_at, status, attempts, head, finished_at, cancel_reason, trace_id, resend_of, retry_base)
         VALUES (@id, @organization_id, @mode, @entity_id, @webhook_id, @event_id, @event, @test, @payload, @resource, @position, @seq, @scheduled, @due_at, @status, @attempts, @head, @finished_at, @cancel_reason, @trace_id, @resend_of, @retry_base)
         ON CONFLICT (id) DO NOTHING`,
      ),
      get: db.prepare<[string], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?'),
      firstPending: db.prepare<[string, string], { id: string; head: number }>(
        "SELECT id, head FROM deliveries WHERE webhook_id = ? AND resource = ? AND status = 'pending' ORDER BY position, seq LIMIT 1",
      ),
      makeHead: db.prepare<[string]>('UPDATE deliveries SET head = 1 WHERE id = ?'),
      due: db.prepare<[number, number], { id: string }>(
        'SELECT id FROM deliveries WHERE head = 1 AND due_at <= ? ORDER BY due_at LIMIT ?',
      ),
      claim: db.prepare<{ id: string; now: number; until: number }, DeliveryRow>(
        "UPDATE deliveries SET attempts = attempts + 1, due_at = @until WHERE id = @id AND status = 'pending' AND head = 1 AND due_at <= @now RETURNING *",
      ),
      log: db.prepare<[string, string, number, string, string, string, string, string, string, string]>(
        'INSERT INTO attempt_logs (id, delivery_id, attempt, organization_id, mode, entity_id, webhook_id, event, status, entry) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      count: db.prepare<{ webhook_id: string; ok: number; completed_at: number; status_code: number | null }>(
        `INSERT INTO webhook_stats (webhook_id, total, succeeded, failed, last_delivery_at, last_response_status, last_success_at, failing_since)
         VALUES (@webhook_id, 1, @ok, 1 - @ok, @completed_at, @status_code, CASE WHEN @ok = 1 THEN @completed_at END, CASE WHEN @ok = 0 THEN @completed_at END)
         ON CONFLICT (webhook_id) DO UPDATE SET total = total + 1, succeeded = succeeded + @ok, failed = failed + 1 - @ok,
           last_response_status = CASE WHEN last_delivery_at IS NULL OR @completed_at >= last_delivery_at THEN @status_code ELSE last_response_status END,
           last_delivery_at = MAX(COALESCE(last_delivery_at, 0), @completed_at),
           failing_since = CASE WHEN @ok = 1 THEN NULL ELSE COALESCE(failing_since, last_success_at, @completed_at) END,
           last_success_at = CASE WHEN @ok = 1 THEN MAX(COALESCE(last_success_at, 0), @completed_at) ELSE last_success_at END`,
      ),
      finish: db.prepare<{ id: string; status: string; at: number; due: number; reason: string | null }>(
        "UPDATE deliveries SET status = @status, finished_at = @at, due_at = @due, cancel_reason = @reason WHERE id = @id AND status = 'pending'",
      ),
      failInFlight: db.prepare<{ id: string; attempt: number; at: number; due: number; next: number | null }>(
        `UPDATE deliveries SET status = CASE WHEN @next IS NULL THEN 'failed' ELSE status END,
           finished_at = CASE WHEN @next IS NULL THEN @at ELSE NULL END,
           due_at = COALESCE(@next, @due)
         WHERE id = @id AND status = 'pending' AND attempts = @attempt`,
      ),
      endTurn: db.prepare<[string]>("UPDATE deliveries SET head = 0 WHERE id = ? AND status != 'pending'"),
      pause: db.prepare<[number, string]>("UPDATE deliveries SET due_at = ? WHERE id = ? AND status = 'pending'"),
      resume: db.prepare<[number, string, number]>(
        "UPDATE deliveries SET due_at = ? WHERE webhook_id = ? AND status = 'pending' AND due_at = ?",
      ),
      lastResend: db.prepare<[string], { retry_base: number; status: Delivery['status'] }>(
        'SELECT retry_base, status FROM deliveries WHERE resend_of = ? ORDER BY retry_base DESC LIMIT 1',
      ),
      failedIn: db.prepare<[string, number, number], DeliveryRow>(
        "SELECT * FROM deliveries WHERE webhook_id = ? AND status = 'failed' AND resend_of IS NULL AND scheduled >= ? AND scheduled < ? ORDER BY position, seq",
      ),
      reopen: db.prepare<{ id: string; now: number; attempts: number; head: number }>(
        "UPDATE deliveries SET status = 'pending', finished_at = NULL, cancel_reason = NULL, due_at = @now, attempts = @attempts, retry_base = @attempts, head = @head WHERE id = @id AND status = 'failed'",
      ),
      pendingHeads: db.prepare<[string, string], { id: string }>(
        "SELECT id FROM deliveries WHERE webhook_id = ? AND resource = ? AND status = 'pending' AND head = 1",
      ),
      dropHead: db.prepare<[string]>('UPDATE deliveries SET head = 0 WHERE id = ?'),
      stats: db.prepare<
        [string],
        {
          webhook_id: string;
          total: number;
          succeeded: number;
          failed: number;
          last_delivery_at: number | null;
          last_response_status: number | null;
          failing_since: number | null;
        }
      >('SELECT * FROM webhook_stats WHERE webhook_id IN (SELECT value FROM json_each(?))'),
      marker: db.prepare<[string], { value: string }>('SELECT value FROM markers WHERE name = ?'),
      setMarker: db.prepare<[string, string]>(
        'INSERT INTO markers (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      ),
    };
    this.tx = {
      schedule: db.transaction((row: DeliveryRow) => this.insertScheduled(row)),
      scheduleMany: db.transaction(
        (rows: readonly DeliveryRow[]) => rows.filter((row) => this.insertScheduled(row)).length,
      ),
      record: db.transaction(({ log, next_attempt_at }: AttemptOutcome) => {
        if (!this.insertLog(log)) return;
        const at = log.completed_at;
        if (log.status === 'succeeded')
          this.stmts.finish.run({
            id: log.delivery_id,
            status: 'succeeded',
            at,
            due: at + HANDOFF_GRACE_MS,
            reason: null,
          });
        else
          this.stmts.failInFlight.run({
            id: log.delivery_id,
            attempt: log.attempt,
            at,
            due: at + HANDOFF_GRACE_MS,
            next: next_attempt_at,
          });
      }),
      restoreAttempt: db.transaction((log: AttemptLog) => this.insertLog(log)),
      resend: db.transaction((id: string, resendId: string, now: number): ResendOutcome => {
        const original = this.stmts.get.get(id);
        if (!original) return { refused: 'unknown' };
        if (original.status === 'pending') return { refused: 'pending' };
        const base = this.attemptsSoFar(original);
        const row: DeliveryRow = {
          ...original,
          id: resendId,
          resource: null,
          position: null,
          seq: null,
          scheduled: now,
          due_at: now,
          status: 'pending',
          attempts: base,
          retry_base: base,
          head: 1,
          finished_at: null,
          cancel_reason: null,
          resend_of: id,
        };
        this.stmts.insert.run(row);
        return { resend: toDelivery(row) };
      }),
      recover: db.transaction((webhookId: string, since: number, until: number, now: number): number => {
        const queues = new Set<string>();
        let reopened = 0;
        for (const row of this.stmts.failedIn.all(webhookId, since, until)) {
          // Its latest attempt is its latest resend's, when it has one: a resend that succeeded is not recovered.
          const latest = this.stmts.lastResend.get(row.id);
          if (latest && latest.status !== 'failed') continue;
          reopened += this.stmts.reopen.run({
            id: row.id,
            now,
            attempts: this.attemptsSoFar(row),
            head: row.resource === null ? 1 : 0,
          }).changes;
          if (row.resource !== null) queues.add(row.resource);
        }
        for (const resource of queues) this.rehead(webhookId, resource);
        return reopened;
      }),
      handOff: db.transaction((id: string) => {
        const row = this.stmts.get.get(id);
        if (!row || row.status === 'pending' || row.head === 0) return null;
        const next = row.resource === null ? null : this.promote(row.webhook_id, row.resource);
        this.stmts.endTurn.run(id);
        return next;
      }),
    };
  }

  /** Stores a delivery unless its id is stored already, then makes its queue's first pending delivery the head. */
  private insertScheduled(row: DeliveryRow): boolean {
    const inserted = this.stmts.insert.run(row).changes === 1;
    if (inserted && row.resource !== null && row.status === 'pending') this.promote(row.webhook_id, row.resource);
    return inserted;
  }

  /** Inserts the entry unless the attempt is logged already, and counts it when it was not. */
  private insertLog(log: AttemptLog): boolean {
    const { id, delivery_id, attempt, organization_id, mode, entity_id, webhook_id, event, status } = log;
    if (
      this.stmts.log.run(
        id,
        delivery_id,
        attempt,
        organization_id,
        mode,
        entity_id,
        webhook_id,
        event,
        status,
        JSON.stringify(log),
      ).changes === 0
    )
      return false;
    this.stmts.count.run({
      webhook_id,
      ok: status === 'succeeded' ? 1 : 0,
      completed_at: log.completed_at,
      status_code: log.response?.status_code ?? null,
    });
    return true;
  }

  /** Attempts numbered so far for a delivery: its own and those of its resends. */
  private attemptsSoFar(row: DeliveryRow): number {
    const latest = this.stmts.lastResend.get(row.id);
    return Math.max(row.attempts, latest ? latest.retry_base + 1 : 0);
  }

  /**
   * After recovered deliveries rejoin a queue, its first pending one is the only head: a later one
   * that had the turn gives it back (an attempt of it in flight is still recorded; it goes again
   * when its turn comes).
   */
  private rehead(webhookId: string, resource: string): void {
    const first = this.promote(webhookId, resource);
    for (const { id } of this.stmts.pendingHeads.all(webhookId, resource))
      if (id !== first) this.stmts.dropHead.run(id);
  }

  /** The first pending delivery of the queue becomes its head (if it is not already); returns it. */
  private promote(webhookId: string, resource: string): string | null {
    const first = this.stmts.firstPending.get(webhookId, resource);
    if (first && first.head === 0) this.stmts.makeHead.run(first.id);
    return first?.id ?? null;
  }

  async schedule(delivery: NewDelivery): Promise<boolean> {
    return (await this.scheduleMany([delivery])) === 1;
  }

  /**
   * One transaction for all, committed before the call returns (an async function runs up to its
   * first await at once), so a scheduler woken right after finds them; resolves once on disk.
   */
  async scheduleMany(deliveries: readonly NewDelivery[]): Promise<number> {
    const rows = deliveries.map((d) =>
      toRow({ ...d, status: 'pending', attempts: 0, head: d.queue === null, finished_at: null, cancel_reason: null }),
    );
    return this.durable(this.tx.scheduleMany.immediate(rows));
  }

  /** `result` of a write just committed, once that commit is on disk. */
  private async durable<T>(result: T): Promise<T> {
    this.releaseCheckpoints ??= checkpointInBackground(this.db, this.file);
    await this.wal.synced();
    return result;
  }

  async due(now: number, limit: number): Promise<string[]> {
    return this.stmts.due.all(now, limit).map((r) => r.id);
  }

  async get(id: string): Promise<Delivery | null> {
    const row = this.stmts.get.get(id);
    return row ? toDelivery(row) : null;
  }

  async claim(id: string, now: number, leaseMs: number): Promise<Delivery | null> {
    // Not awaited to disk: a claim a power cut takes back is an attempt whose worker died, made
    // again (at-least-once, as after any death mid-attempt); the attempt's record, later in the
    // same WAL, is synced with it.
    this.releaseCheckpoints ??= checkpointInBackground(this.db, this.file);
    const row = this.stmts.claim.get({ id, now, until: now + leaseMs });
    return row ? toDelivery(row) : null;
  }

  async record(outcome: AttemptOutcome): Promise<Delivery | null> {
    await this.durable(this.tx.record.immediate(outcome));
    return this.get(outcome.log.delivery_id);
  }

  async cancel(id: string, reason: CancelReason, now: number): Promise<boolean> {
    return this.durable(
      this.stmts.finish.run({ id, status: 'cancelled', at: now, due: now + HANDOFF_GRACE_MS, reason }).changes === 1,
    );
  }

  async handOff(id: string): Promise<string | null> {
    return this.durable(this.tx.handOff.immediate(id));
  }

  async pause(id: string): Promise<boolean> {
    return this.durable(this.stmts.pause.run(PAUSED, id).changes === 1);
  }

  async resume(webhookId: string, now: number): Promise<number> {
    return this.durable(this.stmts.resume.run(now, webhookId, PAUSED).changes);
  }

  async resend(id: string, resendId: string, now: number): Promise<ResendOutcome> {
    return this.durable(this.tx.resend.immediate(id, resendId, now));
  }

  async recover(webhookId: string, since: number, until: number, now: number): Promise<number> {
    return this.durable(this.tx.recover.immediate(webhookId, since, until, now));
  }

  async logs(
    filter: AttemptLogFilter,
    page: { readonly limit: number; readonly before?: string },
  ): Promise<AttemptLogPage> {
    const where = ['organization_id = ?', 'mode = ?', 'entity_id = ?'];
    const params: Array<string | number> = [filter.organization_id, filter.mode, filter.entity_id];
    for (const field of ['webhook_id', 'event', 'status'] as const) {
      const value = filter[field];
      if (value !== undefined) {
        where.push(`${field} = ?`);
        params.push(value);
      }
    }
    if (page.before !== undefined) {
      where.push('id < ?');
      params.push(page.before);
    }
    const sql = `SELECT entry FROM attempt_logs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`;
    const statement = this.listings.get(sql) ?? this.listings.set(sql, this.db.prepare(sql)).get(sql)!;
    const rows = statement.all(...params, page.limit + 1) as { entry: string }[];
    return {
      items: rows.slice(0, page.limit).map((r) => JSON.parse(r.entry) as AttemptLog),
      hasMore: rows.length > page.limit,
    };
  }

  async stats(webhookIds: readonly string[]): Promise<ReadonlyMap<string, DeliveryStats>> {
    if (!webhookIds.length) return new Map();
    return new Map(
      this.stmts.stats.all(JSON.stringify(webhookIds)).map((s) => [
        s.webhook_id,
        {
          deliveries_total: s.total,
          deliveries_succeeded: s.succeeded,
          deliveries_failed: s.failed,
          last_delivery_at: s.last_delivery_at,
          last_response_status: s.last_response_status,
          failing_since: s.failing_since,
        },
      ]),
    );
  }

  async marker(name: string): Promise<string | null> {
    return this.stmts.marker.get(name)?.value ?? null;
  }

  async setMarker(name: string, value: string): Promise<void> {
    await this.durable(this.stmts.setMarker.run(name, value));
  }

  async restore(delivery: Delivery): Promise<boolean> {
    return this.durable(
      this.tx.schedule.immediate(
        toRow({ ...delivery, head: delivery.status === 'pending' && delivery.queue === null }),
      ),
    );
  }

  async restoreAttempt(log: AttemptLog): Promise<boolean> {
    return this.durable(this.tx.restoreAttempt.immediate(log));
  }

  async close(): Promise<void> {
    await this.releaseCheckpoints?.();
    await this.wal.close(() => this.db.close());
  }
}
