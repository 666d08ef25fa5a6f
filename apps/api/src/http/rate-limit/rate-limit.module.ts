import { Global, Module } from '@nestjs/common';
import { getOptionsToken, getStorageToken, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { createRateLimitStore } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { systemClock } from '@app/platform/clock';
import { ApiRateLimitGuard } from './api-rate-limit.guard';
import { TokenBucketStorage } from './token-bucket.storage';

/** RATE_LIMIT_BURST tokens refilled at RATE_LIMIT_PER_SECOND: the burst per burst/rate seconds. */
export function throttlerOptions(config: PlatformConfig): ThrottlerModuleOptions {
  const ttl = config.rateLimitPerSecond > 0 ? (1000 * config.rateLimitBurst) / config.rateLimitPerSecond : 1000;
  return { throttlers: [{ name: 'default', limit: config.rateLimitBurst, ttl }] };
}

/**
 * The rate limiter of decisions §2 on @nestjs/throttler's guard, with buckets kept where every
 * API replica shares them (createRateLimitStore). Global, so the AuthGuard can meter each caller.
 */
@Global()
@Module({
  providers: [
    { provide: getOptionsToken(), inject: [PLATFORM_CONFIG], useFactory: throttlerOptions },
    // The machine's clock, not the app's: buckets meter requests as they really arrive, and a test that
    // moves the app's time (cards' cycles, expiries) must neither fill nor empty them.
    {
      provide: getStorageToken(),
      inject: [PLATFORM_CONFIG],
      useFactory: (config: PlatformConfig) => new TokenBucketStorage(createRateLimitStore(config, systemClock)),
    },
    ApiRateLimitGuard,
  ],
  // The storage too: the readiness probe checks its store (apps/api/src/health/readiness.ts).
  exports: [ApiRateLimitGuard, getStorageToken()],
})
export class RateLimitModule {}
