import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorFunction, type HealthIndicatorResult } from '@nestjs/terminus';
import { getStorageToken } from '@nestjs/throttler';
import { describeAdapters } from '@app/platform/adapters';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { CHECKPOINT_STORE, type CheckpointStore } from '@app/platform/coordination/checkpoint-store.port';
import { DELIVERY_STORE, type DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from '@app/platform/idempotency/idempotency-store.port';
import { withTimeout } from '@app/platform/metrics/metrics';
import { RAW_READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { LegacyReferenceMigration } from '@app/application/transfers';
import type { TokenBucketStorage } from '../http/rate-limit/token-bucket.storage';

/** A store that has not answered within this is down for the probe (Kubernetes' own timeout is 1 s by default: deploy/ sets 3 s). */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

const PROBE = 'health:readiness-probe';

/**
 * `GET /health/ready`: one @nestjs/terminus indicator per store this API reads or writes when it
 * serves, each a cheap read (or a write that changes nothing) bounded in time: the event store
 * (the log's head), the read store and the coordination store (a checkpoint), the snapshot store
 * (a snapshot of no stream), the delivery store (a marker), the idempotency store (releasing a
 * key nobody holds) and the rate-limit store (a bucket of its own). The bus is not checked: the API
 * never publishes (the publisher worker does). Nothing here runs for `/health/live`.
 */
@Injectable()
export class ReadinessIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(RAW_READ_STORE) private readonly reads: ReadStore,
    @Inject(CHECKPOINT_STORE) private readonly coordination: CheckpointStore,
    @Optional() @Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore | null,
    @Optional() @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore | null,
    @Optional() @Inject(getStorageToken()) private readonly rateLimits: TokenBucketStorage | null,
    @Optional() private readonly migration: LegacyReferenceMigration | null,
  ) {}

  checks(): HealthIndicatorFunction[] {
    const adapters = describeAdapters(this.config);
    const checks: HealthIndicatorFunction[] = [
      () => this.check('event_store', adapters.event_store, () => this.eventStoreReady()),
      () => this.check('read_store', adapters.read_store, () => this.reads.getCheckpoint(PROBE)),
      () => this.check('coordination_store', adapters.read_store, () => this.coordination.getCheckpoint(PROBE)),
    ];
    const snapshots = this.events.folds?.snapshots;
    if (snapshots)
      checks.push(() => this.check('snapshot_store', adapters.read_store, () => snapshots.load(PROBE, PROBE)));
    const { deliveries, idempotency, rateLimits } = this;
    if (deliveries)
      checks.push(() => this.check('delivery_store', adapters.read_store, () => deliveries.marker(PROBE)));
    if (idempotency)
      checks.push(() =>
        this.check('idempotency_store', adapters.read_store, () => idempotency.release(PROBE, PROBE, PROBE)),
      );
    if (rateLimits?.store)
      checks.push(() =>
        this.check('rate_limit_store', adapters.read_store, () =>
          rateLimits.store.take(PROBE, { capacity: 1, refillPerMs: 1 }),
        ),
      );
    return checks;
  }

  /** The log's head answers, and an older log was migrated (legacy-migration.ts: retried after a failed start). */
  private async eventStoreReady(): Promise<void> {
    await this.events.headPosition();
    if (this.migration && !this.migration.done) throw new Error('the older log is not migrated yet');
  }

  private async check(key: string, adapter: string, probe: () => Promise<unknown>): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(key);
    // How long the probe took: a duration (performance.now()), not a time of day the clock gives.
    const started = performance.now();
    try {
      await withTimeout(probe(), READINESS_CHECK_TIMEOUT_MS);
      return indicator.up({ adapter, ms: Math.round(performance.now() - started) });
    } catch (err) {
      // The cause goes to the log only: the probe is public, and driver messages name hosts.
      logger.warn({ err, check: key }, 'readiness check failed');
      const timedOut = err instanceof Error && err.message.startsWith('timed out');
      return indicator.down({
        adapter,
        ms: Math.round(performance.now() - started),
        message: timedOut ? `no answer within ${READINESS_CHECK_TIMEOUT_MS} ms` : 'unavailable',
      });
    }
  }
}
