import { MongoClient, MongoServerError, type Collection, type Db, type Filter as MongoFilter } from 'mongodb';
import { LEASES } from '../coordination/mongo-coordination-store';
import { logger } from '../logging/logger';
import type { Page, PageQuery, ProjectionWrite, ReadDocument, ReadStore } from './read-store.port';

/** How a read-model document is stored: the projection's document under `body`, beside its guard. */
interface StoredDocument {
  _id: string;
  /** Global position of the event that last wrote the document. */
  pos: number;
  deleted: boolean;
  body: ReadDocument | null;
}

interface StoredCheckpoint {
  _id: string;
  position: number;
}

const CHECKPOINTS = 'checkpoints';
const MAX_WRITE_ATTEMPTS = 5;

/**
 * MongoDB read models without multi-document transactions. Every document write is a
 * compare-and-set on the position it was read at, and only happens when the event's position is
 * beyond it, so a replayed write is a no-op; checkpoints are written after the documents, so a
 * crash in between only replays writes the guard then skips. Plain find/sort/limit, insertOne
 * and updateOne with equality filters only: this runs on MongoDB and on mongo-java-server.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly indexes = new Map<string, Promise<void>>();

  constructor(url: string, database: string) {
    this.client = new MongoClient(url);
    this.db = this.client.db(database);
  }

  async get<T extends ReadDocument>(collection: string, id: string): Promise<T | null> {
    const stored = await this.collection(collection).findOne({ _id: id, deleted: false });
    return (stored?.body as T | undefined) ?? null;
  }

  async find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>> {
    const filter: Record<string, unknown> = { deleted: false };
    const equality: string[] = [];
    for (const [field, value] of Object.entries(query.filter ?? {})) {
      if (value === undefined) continue;
      assertFieldName(field);
      filter[`body.${field}`] = value;
      equality.push(field);
    }
    if (query.range && (query.range.gte !== undefined || query.range.lte !== undefined)) {
      assertFieldName(query.range.field);
      const bounds: Record<string, number> = {};
      if (query.range.gte !== undefined) bounds.$gte = query.range.gte;
      if (query.range.lte !== undefined) bounds.$lte = query.range.lte;
      filter[`body.${query.range.field}`] = bounds;
    }
    const id: Record<string, string> = {};
    if (query.before !== undefined) id.$lt = query.before;
    if (query.after !== undefined) id.$gt = query.after;
    if (Object.keys(id).length) filter._id = id;
    await this.ensureIndex(collection, equality, query.range?.field);
    // Reading towards newer documents walks ids upwards, then flips the page to newest first.
    const towardsNewer = query.after !== undefined && query.before === undefined;
    const rows = await this.collection(collection)
      .find(filter as MongoFilter<StoredDocument>, { projection: { body: 1 } })
      .sort({ _id: towardsNewer ? 1 : -1 })
      .limit(query.limit + 1)
      .toArray();
    const items = rows.slice(0, query.limit).map((r) => r.body as T);
    return { items: towardsNewer ? items.reverse() : items, hasMore: rows.length > query.limit };
  }

  async apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void> {
    const known = await this.prefetch(writes);
    for (const write of writes) await this.applyOne(write, known);
    for (const [name, position] of Object.entries(checkpoints)) {
      // $max: a checkpoint never moves back, whoever saves late (see the CheckpointStore port).
      await this.db.collection<StoredCheckpoint>(CHECKPOINTS).updateOne({ _id: name }, { $max: { position } }, { upsert: true });
    }
  }

  /** One read per collection instead of one per write; later writes in the batch see earlier ones. */
  private async prefetch(writes: readonly ProjectionWrite[]): Promise<Map<string, StoredDocument | null>> {
    const known = new Map<string, StoredDocument | null>();
    const idsByCollection = new Map<string, Set<string>>();
    for (const w of writes) idsByCollection.set(w.collection, (idsByCollection.get(w.collection) ?? new Set()).add(w.id));
    for (const [collection, ids] of idsByCollection) {
      for (const id of ids) known.set(key(collection, id), null);
      const found = await this.collection(collection).find({ _id: { $in: [...ids] } }).toArray();
      for (const doc of found) known.set(key(collection, doc._id), doc);
    }
    return known;
  }

  private async applyOne(write: ProjectionWrite, known: Map<string, StoredDocument | null>): Promise<void> {
    const k = key(write.collection, write.id);
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const stored = known.has(k) ? (known.get(k) ?? null) : await this.collection(write.collection).findOne({ _id: write.id });
      if (stored && stored.pos >= write.position) return;
      const current = stored && !stored.deleted ? stored.body : null;
      const next = write.evolve(current);
      if (next === current) return;
      const doc: StoredDocument = { _id: write.id, pos: write.position, deleted: next === null, body: next };
      if (await this.compareAndSet(write.collection, stored, doc)) {
        known.set(k, doc);
        return;
      }
      // Another writer got there first: read again and let the guard decide.
      known.delete(k);
    }
    throw new Error(`read model ${write.collection}/${write.id}: gave up after ${MAX_WRITE_ATTEMPTS} concurrent updates`);
  }

  /** Writes `doc` only if the stored one is still what was read (absent, or at the same position). */
  private async compareAndSet(collection: string, read: StoredDocument | null, doc: StoredDocument): Promise<boolean> {
    const target = this.collection(collection);
    if (!read) {
      try {
        await target.insertOne(doc);
        return true;
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) return false;
        throw error;
      }
    }
    const { _id, ...fields } = doc;
    const result = await target.updateOne({ _id, pos: read.pos }, { $set: fields });
    return result.matchedCount === 1;
  }

  async getCheckpoint(name: string): Promise<number> {
    const found = await this.db.collection<StoredCheckpoint>(CHECKPOINTS).findOne({ _id: name });
    return found?.position ?? 0;
  }

  async reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    for (const c of collections) await this.collection(c).deleteMany({});
    if (checkpoints.length) await this.db.collection<StoredCheckpoint>(CHECKPOINTS).deleteMany({ _id: { $in: [...checkpoints] } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private collection(name: string): Collection<StoredDocument> {
    if (name === CHECKPOINTS || name === LEASES) throw new Error(`"${name}" is reserved for checkpoints and leases`);
    return this.db.collection<StoredDocument>(name);
  }

  /**
   * One compound index per query shape, created on first use: equality fields, then `_id` for the
   * sort and cursors, then the range field (equality, sort, range), so a page reads only its rows.
   */
  private ensureIndex(collection: string, equality: readonly string[], range: string | undefined): Promise<void> {
    const fields = [...new Set(equality)].sort();
    const spec: Record<string, 1 | -1> = { deleted: 1 };
    for (const f of fields) spec[`body.${f}`] = 1;
    spec._id = -1;
    if (range && !fields.includes(range)) spec[`body.${range}`] = 1;
    const id = `${collection}:${Object.keys(spec).join(',')}`;
    let pending = this.indexes.get(id);
    if (!pending) {
      pending = this.collection(collection)
        .createIndex(spec)
        .then(() => undefined)
        // A missing index makes lists slower, never wrong: say so and keep serving.
        .catch((err) => logger.warn({ err, collection, spec }, 'read store: could not create index'));
      this.indexes.set(id, pending);
    }
    return pending;
  }
}

function key(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}

function assertFieldName(field: string): void {
  // Field names become document paths; `$` or odd characters would turn a filter into an operator.
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/i.test(field)) throw new Error(`invalid field name ${field}`);
}
