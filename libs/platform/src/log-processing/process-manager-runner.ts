import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { systemClock, type Clock } from '../clock';
import type { CheckpointStore } from '../coordination/checkpoint-store.port';
import type { LeaseStore } from '../coordination/lease-store.port';
import type { EventStore } from '../event-store/event-store.port';
import { CheckpointedReader } from './checkpointed-reader';
import type { ProcessManager, WorkOptions } from './process-manager';
import { ProcessManagerWork } from './process-manager-work';

export interface ProcessManagerPorts {
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly leases: LeaseStore;
}

export interface RunnerOptions extends WorkOptions {
  /** How long a lease lasts without renewal: how soon a crashed holder's work moves elsewhere. */
  readonly leaseTtlMs?: number;
  /** How often the holder renews and the others try to take over; well under the TTL. */
  readonly leaseRenewMs?: number;
  /** What lease expiries are reckoned on (the process's injected clock). */
  readonly clock?: Clock;
}

export interface RunnerStatus {
  readonly name: string;
  /** Whether this process holds the lease, and so is the one doing the manager's work. */
  readonly holding: boolean;
  /** Events whose work finished in this process since it started. */
  readonly handled: number;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;
export const DEFAULT_LEASE_RENEW_MS = 5_000;

/**
 * Runs a process manager once per deployment: every replica runs a runner, and only the one
 * holding the manager's lease works (a CheckpointedReader over a ProcessManagerWork, from the
 * shared checkpoint); the others try to take the lease at each renewal interval. The holder
 * renews it; when a renewal finds it gone, or cannot reach the store before it would expire, the
 * holder stops working (aborting unfinished work, saving how far finished work goes). A stopping runner releases the lease so another replica
 * takes over at its next attempt; a crashed one is replaced once its lease has expired.
 */
export class ProcessManagerRunner {
  readonly holder: string;
  private work: { readonly reader: CheckpointedReader; readonly manager: ProcessManagerWork } | null = null;
  private heldUntil = 0;
  private handledBefore = 0;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly ports: ProcessManagerPorts,
    private readonly manager: ProcessManager,
    private readonly options: RunnerOptions = {},
  ) {
    // Unique per runner, and says which process holds the lease to whoever reads the record.
    this.holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  /** Checkpoint and lease share this name, each in its own table. */
  get name(): string {
    return `process-manager:${this.manager.name}`;
  }

  /** Tries the lease once before returning, so a lone process works as soon as it has started. */
  async start(): Promise<void> {
    this.stopped = false;
    this.ticking = this.tick();
    await this.ticking;
    this.schedule();
  }

  get status(): RunnerStatus {
    return {
      name: this.manager.name,
      holding: this.work !== null,
      handled: this.handledBefore + (this.work?.manager.handled ?? 0),
    };
  }

  /** Where a new holder would resume, while this one works (0 otherwise). */
  get checkpoint(): number {
    return this.work?.reader.lastPosition ?? 0;
  }

  get pending(): number {
    return this.work?.manager.pending ?? 0;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      this.ticking = this.tick().finally(() => this.schedule());
    }, this.options.leaseRenewMs ?? DEFAULT_LEASE_RENEW_MS);
  }

  /** Never rejects: a failure is reported and the next interval tries again. */
  private async tick(): Promise<void> {
    try {
      await this.renewOrTakeOver();
    } catch (error) {
      this.options.onCoordinationError?.(error);
    }
  }

  private async renewOrTakeOver(): Promise<void> {
    const ttl = this.options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    const clock = this.options.clock ?? systemClock;
    const asked = clock.now();
    let held: boolean;
    try {
      held = await this.ports.leases.acquire(this.name, this.holder, ttl);
      if (held) this.heldUntil = asked + ttl;
    } catch (error) {
      this.options.onCoordinationError?.(error);
      // Unknown: keep working only while the lease surely lasts until the next attempt.
      held = this.work !== null && clock.now() + (this.options.leaseRenewMs ?? DEFAULT_LEASE_RENEW_MS) < this.heldUntil;
    }
    if (held && !this.work) await this.begin();
    else if (!held && this.work) await this.end();
  }

  private async begin(): Promise<void> {
    const manager = new ProcessManagerWork(this.manager, this.options);
    const reader = new CheckpointedReader(this.ports.store, this.ports.checkpoints, manager, {
      checkpointName: this.name,
      onCheckpointError: this.options.onCoordinationError,
    });
    try {
      await reader.start();
      this.work = { reader, manager };
    } catch (error) {
      // Without its checkpoint it cannot work: let another replica try.
      await reader.stop().catch(() => undefined);
      await this.release();
      throw error;
    }
  }

  private async end(): Promise<void> {
    const work = this.work;
    this.work = null;
    if (!work) return;
    await work.reader.stop();
    this.handledBefore += work.manager.handled;
  }

  private async release(): Promise<void> {
    await this.ports.leases.release(this.name, this.holder).catch((error) => this.options.onCoordinationError?.(error));
  }

  /** Stops working, saves the checkpoint, then releases the lease so that a replica takes over. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    const held = this.work !== null;
    try {
      await this.end();
    } finally {
      if (held) await this.release();
    }
  }
}
