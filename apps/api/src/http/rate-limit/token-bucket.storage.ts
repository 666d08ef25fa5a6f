import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { RateLimitStore } from '@app/platform/rate-limit/token-bucket';

/**
 * @nestjs/throttler's storage as a token bucket (decisions §2): a throttler of `limit` per `ttl`
 * ms is a bucket of `limit` tokens refilled at `limit / ttl` per ms, so `limit` is the burst and
 * `limit / ttl` the sustained rate. Times are whole seconds, as Retry-After wants them.
 */
export class TokenBucketStorage implements ThrottlerStorage, OnApplicationShutdown {
  constructor(readonly store: RateLimitStore) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const refillPerMs = limit / ttl;
    const take = await this.store.take(key, { capacity: limit, refillPerMs });
    const used = limit - take.tokens;
    return {
      totalHits: used,
      timeToExpire: Math.ceil(used / refillPerMs / 1000),
      isBlocked: !take.allowed,
      timeToBlockExpire: Math.ceil(take.retryAfterMs / 1000),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
