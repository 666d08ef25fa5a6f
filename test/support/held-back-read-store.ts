import type { CollectionIndexes } from '@app/platform/read-store/read-index';
import type {
  Page,
  PageQuery,
  ProjectionWrite,
  ReadDocument,
  ReadStore,
} from '@app/platform/read-store/read-store.port';

/**
 * A read store whose projections lag the log on demand: while held, every apply that carries a
 * projection's writes or checkpoints waits at a gate until the test releases it, so read models
 * stay behind for as long as a test wants. Checkpoint-only applies of other readers (the bus
 * publisher, process managers) pass: they are not read models and must keep running.
 */
export class HeldBackReadStore implements ReadStore {
  private gate: { opened: Promise<void>; open(): void } | null = null;
  private heldApplies = 0;

  constructor(
    private readonly inner: ReadStore,
    private readonly projectionNames: ReadonlySet<string>,
  ) {}

  /** From now on, projections apply nothing until `release`. */
  hold(): void {
    if (this.gate) return;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gate = { opened, open };
  }

  /** Lets every held apply through, in the order the projector issued them. */
  release(): void {
    this.gate?.open();
    this.gate = null;
  }

  /** How many applies are waiting at the gate: a test can check the hold really held something. */
  get waiting(): number {
    return this.heldApplies;
  }

  async apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void> {
    const gate = this.gate;
    if (gate && this.isProjection(writes, checkpoints)) {
      this.heldApplies += 1;
      await gate.opened.finally(() => (this.heldApplies -= 1));
    }
    return this.inner.apply(writes, checkpoints);
  }

  get<T extends ReadDocument>(collection: string, id: string): Promise<T | null> {
    return this.inner.get<T>(collection, id);
  }

  find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>> {
    return this.inner.find<T>(collection, query);
  }

  getCheckpoint(name: string): Promise<number> {
    return this.inner.getCheckpoint(name);
  }

  reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    return this.inner.reset(collections, checkpoints);
  }

  ensureIndexes(declared: readonly CollectionIndexes[]): Promise<void> {
    return this.inner.ensureIndexes(declared);
  }

  purgeTombstones(collection: string, upTo: number): Promise<number> {
    return this.inner.purgeTombstones(collection, upTo);
  }

  close(): Promise<void> {
    this.release();
    return this.inner.close();
  }

  private isProjection(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): boolean {
    return writes.length > 0 || Object.keys(checkpoints).some((name) => this.projectionNames.has(name));
  }
}
