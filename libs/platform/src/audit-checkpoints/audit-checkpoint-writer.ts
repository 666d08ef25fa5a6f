import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock';
import { LEASE_STORE, type LeaseStore } from '../coordination/lease-store.port';
import { logger } from '../logging/logger';
import { AuditCheckpoints } from './audit-checkpoints';
import { signCheckpoint, verifyCheckpoint, type StoredCheckpoint } from './checkpoint';
import { ChainHashes, auditLeafOf } from './log-leaves';
import { CompactRange, leafHash } from './merkle';

/** The lease that makes one process per deployment the writer. */
export const CHECKPOINT_WRITER_LEASE = 'audit-checkpoint-writer';
const LEASE_TTL_MS = 15_000;
const BATCH = 1_000;
/** Batches folded per tick, so a long catch-up (a first start on a big log) yields between ticks. */
const BATCHES_PER_TICK = 50;

interface WriterState {
  /** The tree of every event folded so far (signed or not). */
  range: CompactRange;
  /** Position of the last event folded. */
  folded: number;
  signed: StoredCheckpoint | null;
  signedAt: number;
}

/**
 * Signs checkpoints over the whole log (docs/decisions/audit.md, "Signed checkpoints"). One writer
 * per deployment: every process that boots it competes for a lease and only the holder works, so
 * several workers with the `audit` role (apps/worker) are safe; the API boots the module without it.
 *
 * The holder folds new events as they come (each tick reads only what is after the last event it
 * folded) into the tree and its side index, and signs a checkpoint when `everyEvents` are unsigned
 * or `intervalMs` has passed since the last one with anything new; and once more when the process
 * shuts down. When it takes the lease it resumes from the latest checkpoint's frontier, after
 * checking the side index against it (rebuilt from the log when it does not match; if the log no
 * longer gives the signed root either, it signs nothing more and says why).
 */
@Injectable()
export class AuditCheckpointWriter implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private state: WriterState | null = null;
  private held = false;
  private heldUntil = 0;
  private halted: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closing = false;

  constructor(
    private readonly checkpoints: AuditCheckpoints,
    @Inject(LEASE_STORE) private readonly leases: LeaseStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Why the writer stopped signing, or null while it works (or waits for the lease). */
  get haltedBecause(): string | null {
    return this.halted;
  }

  get holdsLease(): boolean {
    return this.held;
  }

  onApplicationBootstrap(): void {
    // The key exists (generated if need be) and is published beside the checkpoints from the start.
    const key = this.checkpoints.key;
    this.checkpoints.directory.writePublicKey(key.publicKeyPem);
    logger.info(
      { component: 'audit-checkpoints', key_id: key.keyId, key_source: key.source, dir: this.checkpoints.settings.dir },
      key.source === 'generated'
        ? 'checkpoints signed with the key generated into DATA_DIR (set AUDIT_SIGNING_KEY in production)'
        : 'checkpoints signed with AUDIT_SIGNING_KEY',
    );
    const tickMs = Math.min(1_000, this.checkpoints.settings.intervalMs);
    this.timer = setInterval(() => void this.serially(() => this.tick(false)), tickMs);
    this.timer.unref();
    void this.serially(() => this.tick(false));
  }

  /**
   * Folds everything appended so far and signs a checkpoint over it if the log grew since the last
   * one; returns the latest checkpoint (null when this process does not hold the lease, or halted).
   * Shutdown calls it; tests call it to have a checkpoint at once.
   */
  checkpointNow(): Promise<StoredCheckpoint | null> {
    return this.serially(async () => {
      await this.tick(true);
      return this.held && !this.halted ? (this.state?.signed ?? null) : null;
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checkpointNow().catch((err: unknown) =>
      logger.error({ err, component: 'audit-checkpoints' }, 'final checkpoint failed'),
    );
    this.closing = true;
    if (this.held) await this.leases.release(CHECKPOINT_WRITER_LEASE, this.holder).catch(() => undefined);
    this.held = false;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch((err: unknown) =>
      logger.error({ err, component: 'audit-checkpoints' }, 'checkpoint writer tick failed'),
    );
    return run;
  }

  private async tick(final: boolean): Promise<void> {
    if (this.closing || this.halted) return;
    if (!(await this.lease())) {
      this.state = null; // another process writes: reload from its checkpoints when the lease comes back
      return;
    }
    this.state ??= await this.load();
    if (!this.state) return;
    await this.fold(this.state, final ? Infinity : BATCHES_PER_TICK);
    const { range, signed, signedAt } = this.state;
    const unsigned = range.size - (signed?.tree_size ?? 0);
    const due =
      unsigned >= this.checkpoints.settings.everyEvents ||
      this.clock.now() - signedAt >= this.checkpoints.settings.intervalMs;
    if (unsigned > 0 && (final || due)) this.sign(this.state);
  }

  private async lease(): Promise<boolean> {
    const asked = this.clock.now();
    try {
      this.held = await this.leases.acquire(CHECKPOINT_WRITER_LEASE, this.holder, LEASE_TTL_MS);
      if (this.held) this.heldUntil = asked + LEASE_TTL_MS;
    } catch (err) {
      // Unknown: keep writing only while the lease surely lasts.
      this.held = this.held && this.clock.now() + 2_000 < this.heldUntil;
      logger.warn({ err, component: 'audit-checkpoints' }, 'checkpoint writer lease unavailable');
    }
    return this.held;
  }

  /** Reads events after the last one folded, `batches` pages at most, into the tree and its side index. */
  private async fold(state: WriterState, batches: number, upTo = Infinity): Promise<void> {
    const hashes = new ChainHashes(this.checkpoints.raw);
    for (let i = 0; i < batches; i++) {
      const page = (await this.checkpoints.raw.readAll({ after: state.folded, limit: BATCH })).filter(
        (e) => e.position <= upTo,
      );
      if (!page.length) return;
      const leaves = [];
      for (const event of page) {
        const leaf = auditLeafOf(event, await hashes.of(event));
        leaves.push({ leaf, eventId: event.metadata.event_id, hash: leafHash(leaf) });
      }
      state.range = this.checkpoints.tree.append(state.range, leaves);
      state.folded = page[page.length - 1].position;
      if (page.length < BATCH) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private sign(state: WriterState): void {
    const statement = {
      tree_size: state.range.size,
      last_position: state.folded,
      root_hash: state.range.root().toString('hex'),
      timestamp: this.clock.now(),
    };
    const checkpoint: StoredCheckpoint = {
      ...signCheckpoint(statement, this.checkpoints.key),
      frontier: state.range.frontier.map((h) => h.toString('hex')),
    };
    this.checkpoints.directory.write(checkpoint);
    state.signed = checkpoint;
    state.signedAt = statement.timestamp;
    logger.debug(
      {
        tree_size: checkpoint.tree_size,
        last_position: checkpoint.last_position,
        root_hash: checkpoint.root_hash,
        component: 'audit-checkpoints',
      },
      'checkpoint signed',
    );
  }

  /** The state to resume from: the latest checkpoint's frontier, with the side index checked against it (or rebuilt). */
  private async load(): Promise<WriterState | null> {
    const { directory, tree, key } = this.checkpoints;
    let latest: StoredCheckpoint | null;
    try {
      latest = directory.latest();
    } catch (error) {
      return this.halt(`${(error as Error).message}: move it aside, or fix it, and restart`);
    }
    if (!latest) {
      tree.truncate(0);
      // The first checkpoint comes like any other: after the interval, or once `everyEvents` are unsigned.
      return { range: CompactRange.empty(), folded: 0, signed: null, signedAt: this.clock.now() };
    }
    if (latest.key_id !== key.keyId || !verifyCheckpoint(latest, key.publicKey)) {
      return this.halt(
        `the latest checkpoint (tree_size ${latest.tree_size}) is not signed by this key (${key.keyId.slice(0, 16)}…, from ${key.source}): ` +
          `set AUDIT_SIGNING_KEY to the key that signed it, or move ${directory.dir} aside to start a new series`,
      );
    }
    const range = CompactRange.of(
      latest.tree_size,
      latest.frontier.map((h) => Buffer.from(h, 'hex')),
    );
    if (range.root().toString('hex') !== latest.root_hash)
      return this.halt(`the checkpoint of tree_size ${latest.tree_size}: its frontier does not give its root`);
    const state: WriterState = { range, folded: latest.last_position, signed: latest, signedAt: latest.timestamp };
    if (tree.size() >= latest.tree_size) {
      tree.truncate(latest.tree_size);
      if (this.sideIndexMatches(latest)) return state;
    }
    // The side index is behind the checkpoint (lost, or a new CHECKPOINT_DIR copy without it): rebuild it from the log.
    logger.warn(
      { tree_size: latest.tree_size, component: 'audit-checkpoints' },
      'rebuilding the checkpoint tree index from the log',
    );
    tree.truncate(0);
    const rebuilt: WriterState = { range: CompactRange.empty(), folded: 0, signed: latest, signedAt: latest.timestamp };
    await this.fold(rebuilt, Infinity, latest.last_position);
    if (rebuilt.range.size !== latest.tree_size || rebuilt.range.root().toString('hex') !== latest.root_hash) {
      tree.truncate(0);
      return this.halt(
        `the log no longer gives the latest signed checkpoint (tree_size ${latest.tree_size} up to position ${latest.last_position}; ` +
          `the log has ${rebuilt.range.size} events there): not signing over it; run npm run replay -- --verify`,
      );
    }
    return rebuilt;
  }

  private sideIndexMatches(checkpoint: StoredCheckpoint): boolean {
    try {
      return this.checkpoints.tree
        .frontier(checkpoint.tree_size)
        .every((h, i) => h.toString('hex') === checkpoint.frontier[i]);
    } catch {
      return false;
    }
  }

  private halt(reason: string): null {
    this.halted = reason;
    logger.error({ component: 'audit-checkpoints', reason }, 'checkpoint writer stopped');
    return null;
  }
}
