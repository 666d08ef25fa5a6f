import { MongoClient, MongoServerError, type Db } from 'mongodb';
import type { Clock } from '../clock';
import { mongoClientOptions } from '../mongo-client-options';
import type { CoordinationStore } from './coordination-store.port';

interface StoredCheckpoint {
  _id: string;
  position: number;
}

interface StoredLease {
  _id: string;
  holder: string;
  expires_at: number;
}

/** The read store's collection, so process-manager checkpoints kept there before stay valid. */
const CHECKPOINTS = 'checkpoints';
export const LEASES = 'leases';

/**
 * Checkpoints and leases in the read models' MongoDB database, with single-document atomic
 * updates only (no transactions): `$max` keeps a checkpoint from moving back, and a lease changes
 * hands through an update filtered on "ours or expired", or an insert when there is none yet.
 */
export class MongoCoordinationStore implements CoordinationStore {
  private readonly client: MongoClient;
  private readonly db: Db;

  constructor(
    url: string,
    database: string,
    private readonly clock: Clock,
  ) {
    this.client = new MongoClient(url, mongoClientOptions(url));
    this.db = this.client.db(database);
  }

  async getCheckpoint(name: string): Promise<number> {
    const found = await this.db.collection<StoredCheckpoint>(CHECKPOINTS).findOne({ _id: name });
    return found?.position ?? 0;
  }

  async saveCheckpoint(name: string, position: number): Promise<void> {
    await this.db
      .collection<StoredCheckpoint>(CHECKPOINTS)
      .updateOne({ _id: name }, { $max: { position } }, { upsert: true });
  }

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const leases = this.db.collection<StoredLease>(LEASES);
    const taken = await leases.updateOne(
      { _id: name, $or: [{ holder }, { expires_at: { $lte: now } }] },
      { $set: { holder, expires_at: now + ttlMs } },
    );
    if (taken.matchedCount === 1) return true;
    try {
      await leases.insertOne({ _id: name, holder, expires_at: now + ttlMs });
      return true;
    } catch (error) {
      // Someone else holds it (the update did not match), or inserted it first.
      if (error instanceof MongoServerError && error.code === 11000) return false;
      throw error;
    }
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db.collection<StoredLease>(LEASES).deleteOne({ _id: name, holder });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
