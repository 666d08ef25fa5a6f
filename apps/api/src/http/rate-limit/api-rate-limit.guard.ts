import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { ThrottlerLimitDetail, ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import { domainError } from '@app/domain';
import { DomainException, type Actor } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import type { AuthenticatedRequest } from '../auth/auth.decorators';

/** The name of the one policy of the RateLimit headers: the API key's bucket. */
const POLICY = '"api_key"';

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

  /**
   * One take from the bucket, told as draft-ietf-httpapi-ratelimit-headers on every metered answer
   * (issue 32 item 4): `RateLimit-Policy: "api_key";q=<per second>;w=1`, the sustained rate the 429
   * body's `limit` also gives, and `RateLimit: "api_key";r=<left>;t=<seconds>`. The bucket holds up
   * to the burst, so `r` is capped at `q`: it never promises more than the policy says (more may
   * pass). `t` is the seconds until `r` is `q` again (on a 429, Retry-After). No X-RateLimit-*.
   */
  protected async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    getTracker,
    generateKey,
  }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    const key = generateKey(context, await getTracker(req, context), throttler.name ?? 'default');
    const take = await this.storageService.increment(key, ttl, limit, 0, throttler.name ?? 'default');
    const rate = this.config.rateLimitPerSecond;
    const tokens = limit - take.totalHits;
    const remaining = take.isBlocked ? 0 : Math.max(0, Math.min(rate, Math.floor(tokens)));
    const reset = take.isBlocked ? Math.max(1, take.timeToBlockExpire) : Math.ceil(Math.max(0, rate - tokens) / rate);
    res.header('RateLimit-Policy', `${POLICY};q=${rate};w=1`);
    res.header('RateLimit', `${POLICY};r=${remaining};t=${reset}`);
    if (take.isBlocked) {
      res.header('Retry-After', String(reset));
      await this.throwThrottlingException(context, {
        limit,
        ttl,
        key,
        tracker: key,
        totalHits: take.totalHits,
        timeToExpire: take.timeToExpire,
        isBlocked: true,
        timeToBlockExpire: reset,
      });
    }
    return true;
  }

  protected async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    throw new DomainException(
      domainError(
        'rate_limited',
        'rate_limited',
        `Too many requests: ${this.config.rateLimitPerSecond} per second, bursts of ${detail.limit}; retry after ${retryAfter} s`,
        {
          details: {
            retry_after: retryAfter,
            limit_type: 'requests_per_second',
            current_count: detail.totalHits,
            limit: this.config.rateLimitPerSecond,
          },
        },
      ),
    );
  }
}
