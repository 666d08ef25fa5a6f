import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CHECKPOINT_STORE, type CheckpointStore } from '@app/platform/coordination/checkpoint-store.port';
import { LEASE_STORE, type LeaseStore } from '@app/platform/coordination/lease-store.port';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import type { ProcessManager } from './process-manager';
import { ProcessManagerRunner, type RunnerOptions, type RunnerStatus } from './process-manager-runner';

/**
 * Every process manager of this process, each under its lease: the runners of the features start
 * theirs here (ProcessManagersRoleModule, the worker's process-managers role), the worker's health
 * reads who works, and all stop (releasing their leases) when the worker shuts down.
 */
@Injectable()
export class ProcessManagerRunners implements OnModuleDestroy {
  private readonly runners: ProcessManagerRunner[] = [];

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(LEASE_STORE) private readonly leases: LeaseStore,
  ) {}

  /** Runs `manager` here, under its lease. Only a worker with the process-managers role has runners. */
  async start(manager: ProcessManager, options: RunnerOptions = {}): Promise<void> {
    const runner = new ProcessManagerRunner({ store: this.store, checkpoints: this.checkpoints, leases: this.leases }, manager, {
      onCoordinationError: (err) => logger.warn({ err, manager: manager.name }, 'process manager lease or checkpoint unavailable; retrying'),
      ...options,
    });
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
