import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { Clock } from '../clock';
import { mongoClientOptions } from '../mongo-client-options';
import { allowedAt, refused, tolerance, type BucketTake, type RateLimitStore, type TokenBucket } from './token-bucket';

interface StoredBucket {
  _id: string;
  /** When the bucket is full again (ms). */
  tat: number;
  /** No earlier than `tat`: a full bucket is as good as none, so a TTL index drops it then. */
  expires: Date;
}

/** A take that keeps losing races to other replicas lets the request through rather than fail it. */
const MAX_ATTEMPTS = 20;

/**
 * Buckets in the read models' MongoDB database, shared by every API replica, with single-document
 * atomic updates only: an idle bucket restarts from now, a busy one moves its full-again time by
 * one interval while that stays within the burst. Replica clocks are assumed within a few ms.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private readonly client: MongoClient;
  private readonly buckets: Collection<StoredBucket>;
  private indexed?: Promise<string>;

  constructor(
    url: string,
    database: string,
    private readonly clock: Clock,
  ) {
    this.client = new MongoClient(url, mongoClientOptions(url));
    this.buckets = this.client.db(database).collection<StoredBucket>('rate_limits');
  }

  async take(key: string, bucket: TokenBucket): Promise<BucketTake> {
    this.indexed ??= this.buckets.createIndex({ expires: 1 }, { expireAfterSeconds: 0 });
    await this.indexed;
    const step = 1 / bucket.refillPerMs;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      // The latest the bucket can be full again after this take: a whole burst from now.
      const expires = new Date(now + bucket.capacity * step);
      const idle = await this.buckets.updateOne(
        { _id: key, tat: { $lt: now } },
        { $set: { tat: now + step, expires } },
      );
      if (idle.matchedCount === 1) return allowedAt(bucket, now + step, now);
      const busy = await this.buckets.findOneAndUpdate(
        { _id: key, tat: { $gte: now, $lte: now + tolerance(bucket) } },
        { $inc: { tat: step }, $max: { expires } },
        { returnDocument: 'after' },
      );
      if (busy) return allowedAt(bucket, busy.tat, now);
      const current = await this.buckets.findOne({ _id: key });
      if (current && current.tat > now + tolerance(bucket)) return refused(bucket, current.tat, now);
      if (!current && (await this.created({ _id: key, tat: now + step, expires })))
        return allowedAt(bucket, now + step, now);
      // Time or another replica moved the bucket between the steps: look again.
    }
    return { allowed: true, tokens: 0, retryAfterMs: 0 };
  }

  private async created(fresh: StoredBucket): Promise<boolean> {
    try {
      await this.buckets.insertOne(fresh);
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
