import { MongoClient, MongoServerError, type Collection, type Db, type Filter as MongoFilter } from 'mongodb';
import { mongoClientOptions } from '../mongo-client-options';
import { LEASES } from '../coordination/mongo-coordination-store';
import type { CollectionIndexes } from './read-index';
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
 * and updateOne (in bulk writes) with equality filters only: this runs on MongoDB and on
 * mongo-java-server.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;

  constructor(url: string, database: string) {
    this.client = new MongoClient(url, mongoClientOptions(url));
    this.db = this.client.db(database);
  }

  async get<T extends ReadDocument>(collection: string, id: string): Promise<T | null> {
    const stored = await this.collection(collection).findOne({ _id: id, deleted: false });
    return (stored?.body as T | undefined) ?? null;
  }

  async find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>> {
    // Reading towards newer documents walks ids upwards, then flips the page to newest first.
    const towardsNewer = query.after !== undefined && query.before === undefined;
    const rows = await this.findCursor(collection, query, towardsNewer).toArray();
    const items = rows.slice(0, query.limit).map((r) => r.body as T);
    return { items: towardsNewer ? items.reverse() : items, hasMore: rows.length > query.limit };
  }

  /** The plan MongoDB chooses for a `find`, for the tests that prove lists never scan a collection. */
  explainFind(collection: string, query: PageQuery): Promise<Record<string, unknown>> {
    return this.findCursor(collection, query, query.after !== undefined && query.before === undefined).explain();
  }

  private findCursor(collection: string, query: PageQuery, ascending: boolean) {
    return this.collection(collection)
      .find(mongoFilter(query), { projection: { body: 1 } })
      .sort({ _id: ascending ? 1 : -1 })
      .limit(query.limit + 1);
  }

  /**
   * A batch commits in one bulk write per collection it touches, then one for its checkpoints:
   * every write is evolved in memory on the documents read up front (one read per collection),
   * and each changed document is written once, as a compare-and-set on the position it was read
   * at. When another writer got to a document first (a second projector), that collection's
   * writes are applied again one by one, each guarded, which skips what is already there.
   */
  async apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void> {
    const known = await this.prefetch(writes);
    const staged = new Map<string, { collection: string; read: StoredDocument | null; doc: StoredDocument }>();
    const byKey = new Map<string, ProjectionWrite[]>();
    for (const write of writes) {
      const k = key(write.collection, write.id);
      byKey.set(k, [...(byKey.get(k) ?? []), write]);
      const entry = staged.get(k);
      const stored = entry ? entry.doc : (known.get(k) ?? null);
      if (stored && stored.pos >= write.position) continue;
      const current = stored && !stored.deleted ? stored.body : null;
      const next = write.evolve(current);
      if (next === current) continue;
      const doc: StoredDocument = { _id: write.id, pos: write.position, deleted: next === null, body: next };
      staged.set(k, { collection: write.collection, read: entry ? entry.read : (known.get(k) ?? null), doc });
    }
    const byCollection = new Map<string, Array<{ read: StoredDocument | null; doc: StoredDocument; k: string }>>();
    for (const [k, { collection, read, doc }] of staged)
      byCollection.set(collection, [...(byCollection.get(collection) ?? []), { read, doc, k }]);
    for (const [collection, docs] of byCollection) {
      if (await this.bulkCompareAndSet(collection, docs)) continue;
      // Someone else wrote one of these documents meanwhile: apply the batch's writes one by one.
      const retry = new Map<string, StoredDocument | null>();
      for (const { k } of docs) for (const write of byKey.get(k) ?? []) await this.applyOne(write, retry);
    }
    const entries = Object.entries(checkpoints);
    if (entries.length) {
      // $max: a checkpoint never moves back, whoever saves late (see the CheckpointStore port).
      await this.db.collection<StoredCheckpoint>(CHECKPOINTS).bulkWrite(
        entries.map(([name, position]) => ({
          updateOne: { filter: { _id: name }, update: { $max: { position } }, upsert: true },
        })),
        { ordered: false },
      );
    }
  }

  /** True when every document was written as read; false when one had moved (or was created) meanwhile. */
  private async bulkCompareAndSet(
    collection: string,
    docs: ReadonlyArray<{ read: StoredDocument | null; doc: StoredDocument }>,
  ): Promise<boolean> {
    if (!docs.length) return true;
    const updates = docs.filter((d) => d.read).length;
    try {
      const result = await this.collection(collection).bulkWrite(
        docs.map(({ read, doc }) => {
          if (!read) return { insertOne: { document: doc } };
          const { _id, ...fields } = doc;
          return { updateOne: { filter: { _id, pos: read.pos }, update: { $set: fields } } };
        }),
        { ordered: false },
      );
      return result.matchedCount === updates;
    } catch (error) {
      // A duplicate key: a document this batch thought new was created by another writer.
      if (
        error instanceof MongoServerError &&
        (error.code === 11000 || (error as { writeErrors?: unknown }).writeErrors)
      )
        return false;
      if ((error as { name?: string }).name === 'MongoBulkWriteError') return false;
      throw error;
    }
  }

  /** One read per collection instead of one per write; later writes in the batch see earlier ones. */
  private async prefetch(writes: readonly ProjectionWrite[]): Promise<Map<string, StoredDocument | null>> {
    const known = new Map<string, StoredDocument | null>();
    const idsByCollection = new Map<string, Set<string>>();
    for (const w of writes)
      idsByCollection.set(w.collection, (idsByCollection.get(w.collection) ?? new Set()).add(w.id));
    for (const [collection, ids] of idsByCollection) {
      for (const id of ids) known.set(key(collection, id), null);
      const found = await this.collection(collection)
        .find({ _id: { $in: [...ids] } })
        .toArray();
      for (const doc of found) known.set(key(collection, doc._id), doc);
    }
    return known;
  }

  private async applyOne(write: ProjectionWrite, known: Map<string, StoredDocument | null>): Promise<void> {
    const k = key(write.collection, write.id);
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const stored = known.has(k)
        ? (known.get(k) ?? null)
        : await this.collection(write.collection).findOne({ _id: write.id });
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
    throw new Error(
      `read model ${write.collection}/${write.id}: gave up after ${MAX_WRITE_ATTEMPTS} concurrent updates`,
    );
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
    if (checkpoints.length)
      await this.db.collection<StoredCheckpoint>(CHECKPOINTS).deleteMany({ _id: { $in: [...checkpoints] } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private collection(name: string): Collection<StoredDocument> {
    if (name === CHECKPOINTS || name === LEASES) throw new Error(`"${name}" is reserved for checkpoints and leases`);
    return this.db.collection<StoredDocument>(name);
  }

  /**
   * The declared indexes, created at startup: `deleted`, the declared fields, then `_id` descending
   * for the sort and cursors, so a page reads only its rows. Plus one on tombstones for the purge.
   * Undeclared list indexes (named `ix:`) are dropped, since each costs every write.
   */
  async ensureIndexes(declared: readonly CollectionIndexes[]): Promise<void> {
    for (const { collection, indexes } of declared) {
      const specs = indexes.map((fields) => ({ key: indexKey(fields), name: `ix:${fields.join(',')}` }));
      const target = this.collection(collection);
      await target.createIndexes([...specs, { key: { deleted: 1, pos: 1 }, name: 'tombstones' }]);
      const existing = await target.listIndexes().toArray();
      for (const { name } of existing) if (isUndeclared(String(name), specs)) await target.dropIndex(String(name));
    }
  }

  /** Names of the collection's indexes, for the tests that check what startup created. */
  async indexNames(collection: string): Promise<string[]> {
    return (await this.collection(collection).listIndexes().toArray()).map((i) => String(i.name));
  }

  async purgeTombstones(collection: string, upTo: number): Promise<number> {
    return (await this.collection(collection).deleteMany({ deleted: true, pos: { $lte: upTo } })).deletedCount;
  }
}

function mongoFilter(query: PageQuery): MongoFilter<StoredDocument> {
  const filter: Record<string, unknown> = { deleted: false };
  for (const [field, value] of Object.entries(query.filter ?? {})) {
    if (value === undefined) continue;
    assertFieldName(field);
    filter[`body.${field}`] = value;
  }
  const range = query.range;
  if (range && (range.gte !== undefined || range.lte !== undefined)) {
    assertFieldName(range.field);
    filter[`body.${range.field}`] = {
      ...(range.gte !== undefined && { $gte: range.gte }),
      ...(range.lte !== undefined && { $lte: range.lte }),
    };
  }
  const id = {
    ...(query.before !== undefined && { $lt: query.before }),
    ...(query.after !== undefined && { $gt: query.after }),
  };
  if (Object.keys(id).length) filter._id = id;
  return filter as MongoFilter<StoredDocument>;
}

/**
 * A list index no projection declares any more: one named `ix:` that is not wanted, or one the
 * previous version created on first use of a filter (driver-generated names, `deleted_1_…`).
 */
function isUndeclared(name: string, wanted: readonly { name: string }[]): boolean {
  return (name.startsWith('ix:') || name.startsWith('deleted_1_')) && !wanted.some((w) => w.name === name);
}

function indexKey(fields: readonly string[]): Record<string, 1 | -1> {
  fields.forEach(assertFieldName);
  const key: Record<string, 1 | -1> = { deleted: 1 };
  for (const f of fields) key[`body.${f}`] = 1;
  key._id = -1;
  return key;
}

function key(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}

function assertFieldName(field: string): void {
  // Field names become document paths; `$` or odd characters would turn a filter into an operator.
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/i.test(field)) throw new Error(`invalid field name ${field}`);
}
