import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler/dist/throttler.guard.interface';
import { domainError } from '@app/domain';
import { DomainException, type Actor } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import type { AuthenticatedRequest } from '../auth/auth.decorators';

/** The bucket a caller spends: its API key's, the issuing key's for an entity token. */
export const rateLimitBucketOf = (actor: Actor): string => `key:${actor.id}`;

/**
 * One bucket per API key (decisions §2), which the entity tokens it issued spend too (minting
 * tokens adds no capacity), metered by the AuthGuard once it knows the caller, so unauthenticated
 * routes (GET /health) are never counted. Over the limit: 429 `rate_limited` with Retry-After, in
 * the decided envelope.
 */
@Injectable()
export class ApiRateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    super(options, storage, reflector);
  }

  protected async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.config.rateLimitPerSecond === 0 || !context.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  }

  /**
   * The issuing key's id, for a key and for an entity token alike: a token's actor carries the
   * `api_key_id` its `EntityTokenIssued` event recorded (every token ever issued has one, and a
   * token resolves only while that key is active), and a rotation keeps the id, so the bucket.
   */
  protected async getTracker(req: AuthenticatedRequest): Promise<string> {
    return rateLimitBucketOf(req.actor!);
  }

  /** The throttler's default key is per route; the decided bucket is per credential, across routes. */
  protected generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }

  protected async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    throw new DomainException(
      domainError('rate_limited', 'rate_limited', `Too many requests: ${this.config.rateLimitPerSecond} per second, bursts of ${detail.limit}; retry after ${retryAfter} s`, {
        details: { retry_after: retryAfter, limit_type: 'requests_per_second', current_count: detail.totalHits, limit: this.config.rateLimitPerSecond },
      }),
    );
  }
}
