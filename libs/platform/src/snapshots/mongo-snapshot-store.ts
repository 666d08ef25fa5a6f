import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { mongoClientOptions } from '../mongo-client-options';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store.port';

interface SnapshotDocument {
  _id: string;
  revision: number;
  state: string;
}

/** Beside the read models, in the database every replica shares; never a read model's name. */
export const SNAPSHOTS = 'snapshots';
/** Every snapshot saved, by stream, key and revision (as_of folds from the nearest before its point). */
export const SNAPSHOT_HISTORY = 'snapshot_history';

interface KeptSnapshot {
  _id: string;
  stream_id: string;
  key: string;
  revision: number;
  state: string;
}

/**
 * Snapshots of the production deployment in MongoDB (the read store's database): EventStoreDB
 * streams are the log's, and a snapshot is a cache every API replica can share. One document per
 * stream and key; a save only replaces an older revision (a filtered upsert; losing the race to a
 * later snapshot is the duplicate-key error, ignored).
 */
export class MongoSnapshotStore implements SnapshotStore {
  private readonly client: MongoClient;
  private readonly db: Db;

  constructor(url: string, database: string) {
    this.client = new MongoClient(url, mongoClientOptions(url));
    this.db = this.client.db(database);
  }

  async load(streamId: string, key: string): Promise<StoredSnapshot | null> {
    const found = await this.db.collection<SnapshotDocument>(SNAPSHOTS).findOne({ _id: id(streamId, key) });
    return found ? { streamId, key, revision: found.revision, state: found.state } : null;
  }

  async save(s: StoredSnapshot): Promise<void> {
    try {
      await this.db
        .collection<SnapshotDocument>(SNAPSHOTS)
        .updateOne(
          { _id: id(s.streamId, s.key), revision: { $lt: s.revision } },
          { $set: { revision: s.revision, state: s.state } },
          { upsert: true },
        );
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
    try {
      await this.db.collection<KeptSnapshot>(SNAPSHOT_HISTORY).insertOne({
        _id: keptId(s.streamId, s.key, s.revision),
        stream_id: s.streamId,
        key: s.key,
        revision: s.revision,
        state: s.state,
      });
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
  }

  async revisions(streamId: string, key: string): Promise<number[]> {
    // A range of _id (the stream's and key's prefix), so the walk is the _id index's, in revision order.
    const prefix = `${id(streamId, key)}\u0000`;
    const kept = await this.db
      .collection<KeptSnapshot>(SNAPSHOT_HISTORY)
      .find({ _id: { $gt: prefix, $lt: `${id(streamId, key)}\u0001` } }, { projection: { revision: 1 } })
      .sort({ _id: 1 })
      .toArray();
    return kept.map((k) => k.revision);
  }

  async loadAt(streamId: string, key: string, revision: number): Promise<StoredSnapshot | null> {
    const found = await this.db
      .collection<KeptSnapshot>(SNAPSHOT_HISTORY)
      .findOne({ _id: keptId(streamId, key, revision) });
    return found ? { streamId, key, revision, state: found.state } : null;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

const id = (streamId: string, key: string) => `${key}\u0000${streamId}`;
/** Revisions zero-padded, so _id order is revision order. */
const keptId = (streamId: string, key: string, revision: number) =>
  `${id(streamId, key)}\u0000${String(revision).padStart(12, '0')}`;
