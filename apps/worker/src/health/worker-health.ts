import { Inject, Injectable, Module, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckService,
  HealthIndicatorService,
  TerminusModule,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import type { WorkerRole } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { withTimeout } from '@app/platform/metrics/metrics';
import { PlatformLifecycle } from '@app/platform/platform.module';

/** An answer of a probe: its status code and @nestjs/terminus's body (`status`, `info`, `error`, `details`), as the API's probes. */
export interface ProbeAnswer {
  readonly code: 200 | 503;
  readonly body: HealthCheckResult;
}

/** The log's head must answer within this for the worker to be ready (as the API's readiness checks). */
const EVENT_STORE_CHECK_TIMEOUT_MS = 2_000;

/**
 * A standalone worker's probes through @nestjs/terminus: liveness checks nothing (the event loop
 * answered; a reader that failed makes the process exit anyway), readiness checks that its readers
 * run (`readers`) and that the log answers (`event_store`).
 */
@Injectable()
export class WorkerHealth {
  /** The component whose failure stops the worker, once one has. */
  private failed: string | null = null;

  constructor(
    private readonly checks: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    lifecycle: PlatformLifecycle,
  ) {
    lifecycle.onFailure((component) => (this.failed = component));
  }

  get failure(): string | null {
    return this.failed;
  }

  live(): Promise<ProbeAnswer> {
    // Until the process has exited on a failed reader, liveness says so (no indicator: the API's shape).
    return this.answer([], this.failed === null);
  }

  ready(roles: readonly WorkerRole[]): Promise<ProbeAnswer> {
    return this.answer([() => this.readers(roles), () => this.eventStore()]);
  }

  private readers(roles: readonly WorkerRole[]): HealthIndicatorResult {
    const indicator = this.indicators.check('readers');
    return this.failed === null ? indicator.up({ roles }) : indicator.down({ roles, failed: this.failed });
  }

  private async eventStore(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('event_store');
    try {
      return indicator.up({ head: await withTimeout(this.store.headPosition(), EVENT_STORE_CHECK_TIMEOUT_MS) });
    } catch (err) {
      // The cause goes to the log only: driver messages name hosts.
      logger.warn({ err, check: 'event_store' }, 'readiness check failed');
      return indicator.down({ message: 'unavailable' });
    }
  }

  private async answer(checks: Parameters<HealthCheckService['check']>[0], alive = true): Promise<ProbeAnswer> {
    try {
      const body = await this.checks.check(checks);
      return alive ? { code: 200, body } : { code: 503, body: { ...body, status: 'error' } };
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      return { code: 503, body: error.getResponse() as HealthCheckResult };
    }
  }
}

/** Terminus and the worker's probes; its errors are logged by the checks themselves (logger: false, as the API). */
@Module({ imports: [TerminusModule.forRoot({ logger: false })], providers: [WorkerHealth], exports: [WorkerHealth] })
export class WorkerHealthModule {}
