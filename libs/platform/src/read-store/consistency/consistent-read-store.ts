import type { EventStore } from '../../event-store/event-store.port';
import type { Projection } from '../projection';
import type { Projector } from '../projector';
import type { CollectionIndexes } from '../read-index';
import type { Page, PageQuery, ProjectionWrite, ReadDocument, ReadStore } from '../read-store.port';
import { ProjectorProgress, StoredCheckpointProgress } from './projection-progress';
import { ReadYourWritesBarrier } from './read-your-writes.barrier';

/**
 * The read store queries see (READ_STORE): `get` and `find` answer once the collection includes
 * every write acknowledged before the read began. Writers and internal readers (projector,
 * publisher, webhook worker) use the adapter itself (RAW_READ_STORE) and never wait.
 */
export class ConsistentReadStore implements ReadStore {
  constructor(
    private readonly inner: ReadStore,
    private readonly barrier: ReadYourWritesBarrier,
  ) {}

  async get<T extends ReadDocument>(collection: string, id: string): Promise<T | null> {
    await this.barrier.await(collection);
    return this.inner.get<T>(collection, id);
  }

  async find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>> {
    await this.barrier.await(collection);
    return this.inner.find<T>(collection, query);
  }

  apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void> {
    return this.inner.apply(writes, checkpoints);
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

  /** The platform closes the adapter it owns, once; closing a view of it changes nothing. */
  async close(): Promise<void> {}
}

/** The READ_STORE of a process: waits on its own projector when it runs one, else on stored checkpoints. */
export function consistentReadStore(options: {
  raw: ReadStore;
  store: EventStore;
  projections: readonly Projection[];
  projector: Projector | null;
  timeoutMs: number;
}): ReadStore {
  const progress = options.projector
    ? new ProjectorProgress(options.projector)
    : new StoredCheckpointProgress(options.raw);
  return new ConsistentReadStore(
    options.raw,
    new ReadYourWritesBarrier(options.store, progress, options.projections, options.timeoutMs),
  );
}
