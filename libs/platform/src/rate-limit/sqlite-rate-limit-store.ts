import type Database from 'better-sqlite3';
import type { Clock } from '../clock';
import { openSqlite } from '../sqlite/open-sqlite';
import { takeToken, type BucketTake, type RateLimitStore, type TokenBucket } from './token-bucket';

const SWEEP_EVERY = 1000;

/**
 * Buckets in their own embedded database file: a write per request stays off the read models'
 * write lock, and every process on DATA_DIR shares the buckets. An immediate transaction takes
 * the write lock before reading, so two processes never spend the same token.
 */
export class SqliteRateLimitStore implements RateLimitStore {
  private readonly db: Database.Database;
  private readonly consume: (key: string, bucket: TokenBucket, now: number) => BucketTake;
  private takes = 0;

  constructor(
    file: string,
    private readonly clock: Clock,
  ) {
    // A lost bucket only starts full again.
    this.db = openSqlite(file, 'rebuildable');
    this.db.exec('CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, tat REAL NOT NULL)');
    const read = this.db.prepare<[string], { tat: number }>('SELECT tat FROM rate_limits WHERE key = ?');
    const write = this.db.prepare<[string, number]>(
      'INSERT INTO rate_limits (key, tat) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET tat = excluded.tat',
    );
    // A bucket full again before now is as good as none: dropping it keeps the table to active callers.
    const sweep = this.db.prepare<[number]>('DELETE FROM rate_limits WHERE tat < ?');
    const consume = this.db.transaction((key: string, bucket: TokenBucket, now: number) => {
      if (++this.takes % SWEEP_EVERY === 0) sweep.run(now);
      const { tat, ...take } = takeToken(bucket, read.get(key)?.tat, now);
      if (take.allowed) write.run(key, tat);
      return take;
    });
    this.consume = (key, bucket, now) => consume.immediate(key, bucket, now);
  }

  async take(key: string, bucket: TokenBucket): Promise<BucketTake> {
    return this.consume(key, bucket, this.clock.now());
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
