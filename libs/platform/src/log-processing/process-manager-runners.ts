import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock';
import { CHECKPOINT_STORE, type CheckpointStore } from '../coordination/checkpoint-store.port';
import { LEASE_STORE, type LeaseStore } from '../coordination/lease-store.port';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { logger } from '../logging/logger';
import { APP_METRICS, type AppMetrics } from '../metrics/metrics';
import type { ProcessManager } from './process-manager';
import { ProcessManagerRunner, type RunnerOptions, type RunnerStatus } from './process-manager-runner';

/**
 * Every process manager of this process, each under its lease: the features register theirs here
 * (their runners call `start` at bootstrap; the worker's process-managers role provides this), the
 * worker's health reads who works, and all stop (releasing their leases) when the worker shuts down.
 */
@Injectable()
export class ProcessManagerRunners implements OnModuleDestroy {
  private readonly runners: ProcessManagerRunner[] = [];

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(LEASE_STORE) private readonly leases: LeaseStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(APP_METRICS) metrics: AppMetrics | null = null,
  ) {
    if (metrics) this.defineMetrics(metrics);
  }

  /**
   * Per manager: how far its stored checkpoint is behind the head of the log (what is left to
   * handle, in log positions, the same figure on every replica), whether this replica holds its
   * lease, and how many events it handled here.
   */
  private defineMetrics(metrics: AppMetrics): void {
    metrics.gauge({
      name: 'payments_process_manager_backlog',
      help: 'Log positions between the head of the log and the stored checkpoint of each process manager',
      labelNames: ['manager'],
      read: async () => {
        const head = await this.store.headPosition();
        return Promise.all(
          this.runners.map(async (r) => ({
            labels: { manager: r.status.name },
            value: Math.max(0, head - (await this.checkpoints.getCheckpoint(r.name))),
          })),
        );
      },
    });
    metrics.gauge({
      name: 'payments_process_manager_holding',
      help: "1 when this process holds the manager's lease (works it), else 0",
      labelNames: ['manager'],
      read: () => this.runners.map((r) => ({ labels: { manager: r.status.name }, value: r.status.holding ? 1 : 0 })),
    });
    metrics.gauge({
      name: 'payments_process_manager_handled',
      help: 'Events each process manager handled in this process since it started',
      labelNames: ['manager'],
      read: () => this.runners.map((r) => ({ labels: { manager: r.status.name }, value: r.status.handled })),
    });
  }

  /** Runs `manager` here, under its lease. Only a worker with the process-managers role has runners. */
  async start(manager: ProcessManager, options: RunnerOptions = {}): Promise<void> {
    const runner = new ProcessManagerRunner(
      { store: this.store, checkpoints: this.checkpoints, leases: this.leases },
      manager,
      {
        onCoordinationError: (err) =>
          logger.warn({ err, manager: manager.name }, 'process manager lease or checkpoint unavailable; retrying'),
        clock: this.clock,
        ...options,
      },
    );
    this.runners.push(runner);
    await runner.start();
  }

  status(): RunnerStatus[] {
    return this.runners.map((r) => r.status);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.stop()));
  }
}
