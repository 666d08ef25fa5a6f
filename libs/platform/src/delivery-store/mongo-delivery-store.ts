import { MongoClient, MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import { mongoClientOptions } from '../mongo-client-options';
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

type DeliveryDocument = Omit<Delivery, 'id' | 'queue'> & {
  _id: string;
  resource: string | null;
  position: number | null;
  seq: number | null;
};

/** The entry as JSON (header and query names may hold dots or `$`), beside the fields lists filter on. */
interface LogDocument {
  _id: string;
  delivery_id: string;
  attempt: number;
  organization_id: string;
  mode: string;
  entity_id: string;
  webhook_id: string;
  event: string;
  status: string;
  entry: string;
}

interface StatsDocument {
  _id: string;
  total: number;
  succeeded: number;
  failed: number;
  last_delivery_at?: number | null;
  last_response_status?: number | null;
  last_success_at?: number | null;
  failing_since?: number | null;
}

const isDuplicate = (error: unknown) => error instanceof MongoServerError && error.code === 11000;

const toDocument = (d: Delivery): DeliveryDocument => {
  const { id, queue, ...rest } = d;
  return {
    ...rest,
    _id: id,
    resource: queue?.resource ?? null,
    position: queue?.position ?? null,
    seq: queue?.seq ?? null,
  };
};

const toDelivery = (doc: DeliveryDocument): Delivery => {
  const { _id, resource, position, seq, ...rest } = doc;
  return { ...rest, id: _id, queue: resource === null ? null : { resource, position: position!, seq: seq! } };
};

/**
 * The delivery store in MongoDB (the read models' database), with single-document atomic
 * operations only, no transactions: a claim is one findOneAndUpdate filtered on "pending head, due
 * now" that moves `due_at` to the lease's end; a finish is an update filtered on the attempt in
 * flight; a queue's head is handed on by "write, then promote the first pending", in that order
 * everywhere, so any interleaving of a scheduling and a finish leaves the queue a head. Attempt logs
 * are inserted once (a unique index on delivery and attempt) and never updated; nothing here
 * expires (docs/decisions/webhooks.md, "Retention").
 */
export class MongoDeliveryStore implements DeliveryStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly deliveries: Collection<DeliveryDocument>;
  private readonly attempts: Collection<LogDocument>;
  private readonly counters: Collection<StatsDocument>;
  private readonly markers: Collection<{ _id: string; value: string }>;
  private indexed?: Promise<unknown>;

  constructor(url: string, database: string) {
    this.client = new MongoClient(url, mongoClientOptions(url));
    this.db = this.client.db(database);
    this.deliveries = this.db.collection<DeliveryDocument>('webhook_deliveries');
    this.attempts = this.db.collection<LogDocument>('webhook_attempt_logs');
    this.counters = this.db.collection<StatsDocument>('webhook_delivery_stats');
    this.markers = this.db.collection<{ _id: string; value: string }>('webhook_delivery_markers');
  }

  private ready(): Promise<unknown> {
    const scope = { organization_id: 1, mode: 1, entity_id: 1 } as const;
    this.indexed ??= Promise.all([
      this.deliveries.createIndex({ head: 1, due_at: 1 }, { name: 'due' }),
      this.deliveries.createIndex({ webhook_id: 1, resource: 1, status: 1, position: 1, seq: 1 }, { name: 'queue' }),
      this.deliveries.createIndex({ resend_of: 1, retry_base: -1 }, { name: 'resends', sparse: true }),
      this.deliveries.createIndex({ webhook_id: 1, status: 1, scheduled: 1 }, { name: 'by_status' }),
      this.attempts.createIndex({ delivery_id: 1, attempt: 1 }, { unique: true, name: 'once_per_attempt' }),
      this.attempts.createIndex({ ...scope, _id: 1 }, { name: 'entity' }),
      this.attempts.createIndex({ ...scope, webhook_id: 1, _id: 1 }, { name: 'webhook' }),
      this.attempts.createIndex({ ...scope, event: 1, _id: 1 }, { name: 'event' }),
      this.attempts.createIndex({ ...scope, status: 1, _id: 1 }, { name: 'status' }),
    ]).catch((error) => {
      this.indexed = undefined;
      throw error;
    });
    return this.indexed;
  }

  /** The first pending delivery of the queue becomes its head (if it is not already); returns it. */
  private async promote(webhookId: string, resource: string): Promise<string | null> {
    const first = await this.deliveries
      .find({ webhook_id: webhookId, resource, status: 'pending' })
      .sort({ position: 1, seq: 1 })
      .limit(1)
      .next();
    if (first && !first.head)
      await this.deliveries.updateOne({ _id: first._id, status: 'pending' }, { $set: { head: true } });
    return first?._id ?? null;
  }

  private async insert(doc: DeliveryDocument): Promise<boolean> {
    await this.ready();
    try {
      await this.deliveries.insertOne(doc);
    } catch (error) {
      if (isDuplicate(error)) return false;
      throw error;
    }
    if (doc.resource !== null && doc.status === 'pending') await this.promote(doc.webhook_id, doc.resource);
    return true;
  }

  schedule(delivery: NewDelivery): Promise<boolean> {
    return this.insert(
      toDocument({
        ...delivery,
        status: 'pending',
        attempts: 0,
        head: delivery.queue === null,
        finished_at: null,
        cancel_reason: null,
      }),
    );
  }

  /** One after the other: a queue's head is decided by each insert's promotion, which must see the earlier ones. */
  async scheduleMany(deliveries: readonly NewDelivery[]): Promise<number> {
    let scheduled = 0;
    for (const delivery of deliveries) scheduled += Number(await this.schedule(delivery));
    return scheduled;
  }

  async due(now: number, limit: number): Promise<string[]> {
    await this.ready();
    const found = await this.deliveries
      .find({ head: true, due_at: { $lte: now } }, { projection: { _id: 1 } })
      .sort({ due_at: 1 })
      .limit(limit)
      .toArray();
    return found.map((d) => d._id);
  }

  async get(id: string): Promise<Delivery | null> {
    const doc = await this.deliveries.findOne({ _id: id });
    return doc ? toDelivery(doc) : null;
  }

  async claim(id: string, now: number, leaseMs: number): Promise<Delivery | null> {
    const doc = await this.deliveries.findOneAndUpdate(
      { _id: id, status: 'pending', head: true, due_at: { $lte: now } },
      { $inc: { attempts: 1 }, $set: { due_at: now + leaseMs } },
      { returnDocument: 'after' },
    );
    return doc ? toDelivery(doc) : null;
  }

  /** Inserts the entry unless the attempt is logged already, and counts it when it was not. */
  private async insertLog(log: AttemptLog): Promise<boolean> {
    await this.ready();
    const { id, delivery_id, attempt, organization_id, mode, entity_id, webhook_id, event, status } = log;
    try {
      await this.attempts.insertOne({
        _id: id,
        delivery_id,
        attempt,
        organization_id,
        mode,
        entity_id,
        webhook_id,
        event,
        status,
        entry: JSON.stringify(log),
      });
    } catch (error) {
      if (isDuplicate(error)) return false;
      throw error;
    }
    // Two single-document updates: a worker dying between the insert and these undercounts by one.
    const ok = status === 'succeeded' ? 1 : 0;
    await this.counters.updateOne(
      { _id: webhook_id },
      { $inc: { total: 1, succeeded: ok, failed: 1 - ok } },
      { upsert: true },
    );
    const at = log.completed_at;
    await this.counters.updateOne(
      { _id: webhook_id, $or: [{ last_delivery_at: null }, { last_delivery_at: { $lte: at } }] },
      { $set: { last_delivery_at: at, last_response_status: log.response?.status_code ?? null } },
    );
    await this.countFailing(webhook_id, ok === 1, at);
    return true;
  }

  /** What disabling measures from (decisions §15): cleared by a success, else the last success or this first failure. */
  private async countFailing(webhookId: string, ok: boolean, at: number): Promise<void> {
    if (ok)
      return void (await this.counters.updateOne(
        { _id: webhookId },
        { $set: { failing_since: null }, $max: { last_success_at: at } },
      ));
    const counter = await this.counters.findOne({ _id: webhookId });
    if (counter?.failing_since == null) {
      await this.counters.updateOne(
        { _id: webhookId, failing_since: null },
        { $set: { failing_since: counter?.last_success_at ?? at } },
      );
    }
  }

  async record({ log, next_attempt_at }: AttemptOutcome): Promise<Delivery | null> {
    if (await this.insertLog(log)) {
      const at = log.completed_at;
      const finished = { finished_at: at, due_at: at + HANDOFF_GRACE_MS };
      if (log.status === 'succeeded')
        await this.deliveries.updateOne(
          { _id: log.delivery_id, status: 'pending' },
          { $set: { status: 'succeeded', ...finished } },
        );
      else {
        const moved =
          next_attempt_at === null ? { status: 'failed' as const, ...finished } : { due_at: next_attempt_at };
        await this.deliveries.updateOne(
          { _id: log.delivery_id, status: 'pending', attempts: log.attempt },
          { $set: moved },
        );
      }
    }
    return this.get(log.delivery_id);
  }

  async cancel(id: string, reason: CancelReason, now: number): Promise<boolean> {
    const done = await this.deliveries.updateOne(
      { _id: id, status: 'pending' },
      { $set: { status: 'cancelled', cancel_reason: reason, finished_at: now, due_at: now + HANDOFF_GRACE_MS } },
    );
    return done.modifiedCount === 1;
  }

  /** The next head first, then this one's turn ends: a worker dying in between leaves it due, to hand off again. */
  async handOff(id: string): Promise<string | null> {
    const doc = await this.deliveries.findOne({ _id: id });
    if (!doc || doc.status === 'pending' || !doc.head) return null;
    const next = doc.resource === null ? null : await this.promote(doc.webhook_id, doc.resource);
    await this.deliveries.updateOne({ _id: id, status: { $ne: 'pending' } }, { $set: { head: false } });
    return next;
  }

  async pause(id: string): Promise<boolean> {
    return (
      (await this.deliveries.updateOne({ _id: id, status: 'pending' }, { $set: { due_at: PAUSED } })).modifiedCount ===
      1
    );
  }

  async resume(webhookId: string, now: number): Promise<number> {
    await this.ready();
    return (
      await this.deliveries.updateMany(
        { webhook_id: webhookId, status: 'pending', due_at: PAUSED },
        { $set: { due_at: now } },
      )
    ).modifiedCount;
  }

  /** Attempts numbered so far for a delivery: its own and those of its resends; and its latest resend. */
  private async attemptsSoFar(doc: DeliveryDocument): Promise<{ count: number; latest: DeliveryDocument | null }> {
    const latest = await this.deliveries.find({ resend_of: doc._id }).sort({ retry_base: -1 }).limit(1).next();
    return { count: Math.max(doc.attempts, latest ? (latest.retry_base ?? 0) + 1 : 0), latest };
  }

  async resend(id: string, resendId: string, now: number): Promise<ResendOutcome> {
    await this.ready();
    const original = await this.deliveries.findOne({ _id: id });
    if (!original) return { refused: 'unknown' };
    if (original.status === 'pending') return { refused: 'pending' };
    const { count } = await this.attemptsSoFar(original);
    const doc: DeliveryDocument = {
      ...original,
      _id: resendId,
      resource: null,
      position: null,
      seq: null,
      scheduled: now,
      due_at: now,
      status: 'pending',
      attempts: count,
      retry_base: count,
      head: true,
      finished_at: null,
      cancel_reason: null,
      resend_of: id,
    };
    await this.deliveries.insertOne(doc);
    return { resend: toDelivery(doc) };
  }

  /** Each delivery is reopened by one update filtered on `failed`; then each queue it rejoined gets its first pending one as the only head. */
  async recover(webhookId: string, since: number, until: number, now: number): Promise<number> {
    await this.ready();
    const failed = await this.deliveries
      .find({
        webhook_id: webhookId,
        status: 'failed',
        resend_of: null as never,
        scheduled: { $gte: since, $lt: until },
      })
      .sort({ position: 1, seq: 1 })
      .toArray();
    const queues = new Set<string>();
    let reopened = 0;
    for (const doc of failed) {
      const { count, latest } = await this.attemptsSoFar(doc);
      if (latest && latest.status !== 'failed') continue;
      const set = {
        status: 'pending' as const,
        finished_at: null,
        cancel_reason: null,
        due_at: now,
        attempts: count,
        retry_base: count,
        head: doc.resource === null,
      };
      reopened += (await this.deliveries.updateOne({ _id: doc._id, status: 'failed' }, { $set: set })).modifiedCount;
      if (doc.resource !== null) queues.add(doc.resource);
    }
    for (const resource of queues) {
      const first = await this.promote(webhookId, resource);
      await this.deliveries.updateMany(
        { webhook_id: webhookId, resource, status: 'pending', head: true, _id: { $ne: first ?? '' } },
        { $set: { head: false } },
      );
    }
    return reopened;
  }

  async logs(
    filter: AttemptLogFilter,
    page: { readonly limit: number; readonly before?: string },
  ): Promise<AttemptLogPage> {
    await this.ready();
    const query: Filter<LogDocument> = {
      organization_id: filter.organization_id,
      mode: filter.mode,
      entity_id: filter.entity_id,
    };
    if (filter.webhook_id !== undefined) query.webhook_id = filter.webhook_id;
    if (filter.event !== undefined) query.event = filter.event;
    if (filter.status !== undefined) query.status = filter.status;
    if (page.before !== undefined) query._id = { $lt: page.before };
    const found = await this.attempts
      .find(query)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .toArray();
    return {
      items: found.slice(0, page.limit).map((d) => JSON.parse(d.entry) as AttemptLog),
      hasMore: found.length > page.limit,
    };
  }

  async stats(webhookIds: readonly string[]): Promise<ReadonlyMap<string, DeliveryStats>> {
    if (!webhookIds.length) return new Map();
    const found = await this.counters.find({ _id: { $in: [...webhookIds] } }).toArray();
    return new Map(
      found.map((s) => [
        s._id,
        {
          deliveries_total: s.total,
          deliveries_succeeded: s.succeeded,
          deliveries_failed: s.failed,
          last_delivery_at: s.last_delivery_at ?? null,
          last_response_status: s.last_response_status ?? null,
          failing_since: s.failing_since ?? null,
        },
      ]),
    );
  }

  async marker(name: string): Promise<string | null> {
    return (await this.markers.findOne({ _id: name }))?.value ?? null;
  }

  async setMarker(name: string, value: string): Promise<void> {
    await this.markers.updateOne({ _id: name }, { $set: { value } }, { upsert: true });
  }

  restore(delivery: Delivery): Promise<boolean> {
    return this.insert(toDocument({ ...delivery, head: delivery.status === 'pending' && delivery.queue === null }));
  }

  restoreAttempt(log: AttemptLog): Promise<boolean> {
    return this.insertLog(log);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
