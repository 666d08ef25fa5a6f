import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { CheckpointedReader } from '../log-processing/checkpointed-reader';
import type { BatchPolicy, BatchProcessor } from '../log-processing/log-processor';
import { readStoreCheckpoints } from '../log-processing/read-store-checkpoints';
import type { ReadStore } from './read-store.port';
import { BatchWrites } from './batch-writes';
import type { Projection } from './projection';

/**
 * Runs projections from their checkpoints, as a batch processor of the log-processing runtime. Each
 * projection keeps its own checkpoint, so a new one catches up from the start while the others
 * resume where they were. Events are applied in batches; every document write is position-guarded,
 * so a batch replayed after a crash is a no-op.
 */
export class Projector implements BatchProcessor {
  readonly name = 'projector';
  // A batch is one commit of the read store (documents and checkpoints together), as large as a
  // page of the log: a backlog is projected with one commit per 500 events.
  readonly batch: BatchPolicy;
  /** Each projection's position is stored with its documents, in the same commit: exactly once. */
  readonly checkpoint = 'owned';
  private readonly reader: CheckpointedReader;
  private checkpoints: Record<string, number> = {};
  private position = 0;
  private readonly waiters: Array<{ position: number; resolve(): void }> = [];
  private readonly batchListeners = new Set<() => void>();
  private failure: unknown = null;
  // Intervals between commits and purges: elapsed time (performance.now), not the wall clock.
  private nextPurge = 0;
  private lastCommit = 0;

  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly Projection[],
    private readonly options: {
      batchSize?: number;
      onError?: (e: unknown) => void;
      purgeEveryMs?: number;
      commitIntervalMs?: number;
    } = {},
  ) {
    this.batch = { maxEvents: options.batchSize ?? 500, window: () => this.batchWindow() };
    const onError = (e: unknown) => {
      this.failure = e;
      this.options.onError?.(e);
    };
    this.reader = new CheckpointedReader(store, readStoreCheckpoints(readStore), this, { onError });
  }

  start(): Promise<void> {
    return this.reader.start();
  }

  /** Rebuilds outdated projections, then resumes from the oldest projection's checkpoint. */
  async resumeAfter(): Promise<number> {
    await this.rebuildOutdated();
    for (const p of this.projections) this.checkpoints[p.name] = await this.readStore.getCheckpoint(p.name);
    const from = Math.min(...Object.values(this.checkpoints), Number.MAX_SAFE_INTEGER);
    this.position = from === Number.MAX_SAFE_INTEGER ? 0 : from;
    return this.position;
  }

  /**
   * A projection whose version moved past the stored one is rebuilt from the log: its collection
   * is emptied and the checkpoints of every projection writing there reset (position guards would
   * otherwise skip the replayed events). Versions are kept as checkpoints named `version:<name>`,
   * which, like versions, only grow. One projector runs per deployment, so one process does it.
   */
  private async rebuildOutdated(): Promise<void> {
    const outdated: Projection[] = [];
    for (const p of this.projections)
      if ((await this.readStore.getCheckpoint(versionKey(p))) < (p.version ?? 0)) outdated.push(p);
    if (!outdated.length) return;
    const collections = new Set(outdated.map((p) => p.collection));
    const sharing = this.projections.filter((p) => collections.has(p.collection));
    await this.readStore.reset(
      [...collections],
      sharing.map((p) => p.name),
    );
    await this.readStore.apply([], Object.fromEntries(outdated.map((p) => [versionKey(p), p.version ?? 0])));
  }

  /**
   * A short window (5 ms) closes a batch when the log goes quiet; under a steady stream, commits are
   * at least `commitIntervalMs` (20) apart. A commit's cost is mostly the pages it dirties (each
   * touched b-tree leaf of the table and of every index written, about 90 pages for a transfer's
   * documents when a batch held one or two transfers): a batch of many transfers shares them.
   */
  private batchWindow(): number {
    return Math.max(5, this.lastCommit + (this.options.commitIntervalMs ?? 20) - performance.now());
  }

  /** One commit: the batch's documents and every projection's checkpoint together. */
  async handleBatch(batch: RecordedEvent[]): Promise<void> {
    const planned = new BatchWrites(this.readStore);
    for (const event of batch) {
      for (const projection of this.projections) {
        if (event.position <= this.checkpoints[projection.name] || !handlesEvent(projection, event)) continue;
        await planned.add(projection, event);
      }
    }
    const writes = planned.writes;
    const last = batch[batch.length - 1].position;
    const advanced: Record<string, number> = {};
    for (const p of this.projections) advanced[p.name] = Math.max(this.checkpoints[p.name], last);
    await this.readStore.apply(writes, advanced);
    this.lastCommit = performance.now();
    this.checkpoints = advanced;
    this.position = last;
    this.releaseWaiters();
    for (const listener of this.batchListeners) listener();
    await this.purgeTombstones();
  }

  /**
   * A tombstone only guards against an older event for its document being applied again. The
   * projector never applies an event at or below a projection's checkpoint (a rebuild empties the
   * collection, tombstones included), so once every projection writing a collection is past a
   * tombstone it guards nothing: purge those, at most once per interval (default a minute).
   */
  private async purgeTombstones(): Promise<void> {
    if (performance.now() < this.nextPurge) return;
    this.nextPurge = performance.now() + (this.options.purgeEveryMs ?? 60_000);
    const writers = new Map<string, number>();
    for (const p of this.projections)
      writers.set(p.collection, Math.min(writers.get(p.collection) ?? Infinity, this.checkpoints[p.name]));
    for (const [collection, upTo] of writers) await this.readStore.purgeTombstones(collection, upTo);
  }

  private releaseWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].position <= this.position) this.waiters.splice(i, 1)[0].resolve();
    }
  }

  /** Resolves once every event up to `position` (default: the current head) is projected. */
  async waitFor(position?: number): Promise<void> {
    if (this.failure) throw this.failure;
    const target = position ?? (await this.store.headPosition());
    if (target <= this.position) return;
    await new Promise<void>((resolve) => this.waiters.push({ position: target, resolve }));
  }

  /** Called after every batch is stored (the webhook scheduler looks for due work, the API is told); returns the unsubscribe. */
  onBatch(listener: () => void): () => void {
    this.batchListeners.add(listener);
    return () => this.batchListeners.delete(listener);
  }

  get lastPosition(): number {
    return this.position;
  }

  stop(): Promise<void> {
    return this.reader.stop();
  }
}

const versionKey = (projection: Projection) => `version:${projection.name}`;

/** `*` reads every event (the audit index). */
export const handlesEvent = (projection: Projection, event: RecordedEvent) =>
  projection.handles.includes(event.type) || projection.handles.includes('*');
