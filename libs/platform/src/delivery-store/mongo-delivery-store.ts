import { MongoClient, MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import { mongoClientOptions } from '../mongo-client-options';
import {
  HANDOFF_GRACE_MS,
  type AttemptLog,
  type AttemptLogFilter,
  type AttemptLogPage,
  type AttemptOutcome,
  type CancelReason,
  type Delivery,
  type DeliveryStats,
  type DeliveryStore,
  type NewDelivery,
} from './delivery-store.port';

type DeliveryDocument = Omit<Delivery, 'id' | 'queue'> & { _id: string; resource: string | null; position: number | null; seq: number | null };

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
}

const isDuplicate = (error: unknown) => error instanceof MongoServerError && error.code === 11000;

const toDocument = (d: Delivery): DeliveryDocument => {
  const { id, queue, ...rest } = d;
  return { ...rest, _id: id, resource: queue?.resource ?? null, position: queue?.position ?? null, seq: queue?.seq ?? null };
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
    const first = await this.deliveries.find({ webhook_id: webhookId, resource, status: 'pending' }).sort({ position: 1, seq: 1 }).limit(1).next();
    if (first && !first.head) await this.deliveries.updateOne({ _id: first._id, status: 'pending' }, { $set: { head: true } });
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
    return this.insert(toDocument({ ...delivery, status: 'pending', attempts: 0, head: delivery.queue === null, finished_at: null, cancel_reason: null }));
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
      await this.attempts.insertOne({ _id: id, delivery_id, attempt, organization_id, mode, entity_id, webhook_id, event, status, entry: JSON.stringify(log) });
    } catch (error) {
      if (isDuplicate(error)) return false;
      throw error;
    }
    // Two single-document updates: a worker dying between the insert and these undercounts by one.
    const ok = status === 'succeeded' ? 1 : 0;
    await this.counters.updateOne({ _id: webhook_id }, { $inc: { total: 1, succeeded: ok, failed: 1 - ok } }, { upsert: true });
    const at = log.completed_at;
    await this.counters.updateOne(
      { _id: webhook_id, $or: [{ last_delivery_at: null }, { last_delivery_at: { $lte: at } }] },
      { $set: { last_delivery_at: at, last_response_status: log.response?.status_code ?? null } },
    );
    return true;
  }

  async record({ log, next_attempt_at }: AttemptOutcome): Promise<Delivery | null> {
    if (await this.insertLog(log)) {
      const at = log.completed_at;
      const finished = { finished_at: at, due_at: at + HANDOFF_GRACE_MS };
      if (log.status === 'succeeded') await this.deliveries.updateOne({ _id: log.delivery_id, status: 'pending' }, { $set: { status: 'succeeded', ...finished } });
      else {
        const moved = next_attempt_at === null ? { status: 'failed' as const, ...finished } : { due_at: next_attempt_at };
        await this.deliveries.updateOne({ _id: log.delivery_id, status: 'pending', attempts: log.attempt }, { $set: moved });
      }
    }
    return this.get(log.delivery_id);
  }

  async cancel(id: string, reason: CancelReason, now: number): Promise<boolean> {
    const done = await this.deliveries.updateOne({ _id: id, status: 'pending' }, { $set: { status: 'cancelled', cancel_reason: reason, finished_at: now, due_at: now + HANDOFF_GRACE_MS } });
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

  async logs(filter: AttemptLogFilter, page: { readonly limit: number; readonly before?: string }): Promise<AttemptLogPage> {
    await this.ready();
    const query: Filter<LogDocument> = { organization_id: filter.organization_id, mode: filter.mode, entity_id: filter.entity_id };
    if (filter.webhook_id !== undefined) query.webhook_id = filter.webhook_id;
    if (filter.event !== undefined) query.event = filter.event;
    if (filter.status !== undefined) query.status = filter.status;
    if (page.before !== undefined) query._id = { $lt: page.before };
    const found = await this.attempts
      .find(query)
      .sort({ _id: -1 })
      .limit(page.limit + 1)
      .toArray();
    return { items: found.slice(0, page.limit).map((d) => JSON.parse(d.entry) as AttemptLog), hasMore: found.length > page.limit };
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
