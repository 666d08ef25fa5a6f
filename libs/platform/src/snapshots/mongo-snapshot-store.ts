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
        .updateOne({ _id: id(s.streamId, s.key), revision: { $lt: s.revision } }, { $set: { revision: s.revision, state: s.state } }, { upsert: true });
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

const id = (streamId: string, key: string) => `${key}\u0000${streamId}`;
