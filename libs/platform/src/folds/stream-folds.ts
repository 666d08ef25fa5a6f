import { systemClock, type Clock } from '../clock';
import type { EventMetadata, EventStore } from '../event-store/event-store.port';
import type { SnapshotStore } from '../snapshots/snapshot-store.port';
import { FoldCache } from './fold-cache';

/** A stream folded by one evolve function up to `revision` (-1: no stream), with its first event's metadata (its owner). */
export interface CachedFold {
  readonly state: unknown;
  readonly revision: number;
  readonly owner: EventMetadata | null;
}

export interface StreamFoldsOptions {
  /** The fold cache's budget in estimated bytes (FOLD_CACHE_MAX_BYTES). */
  readonly maxBytes: number;
  /** Where long streams' folds are saved and loaded; null: none (a test, a replay). */
  readonly snapshots?: SnapshotStore | null;
  /** A snapshot every this many events (SNAPSHOT_EVERY; 0: none). */
  readonly snapshotEvery?: number;
  /** The process's clock (CLOCK), which stamps the events its commands append (`occurred_at`). */
  readonly clock?: Clock;
}

/**
 * What one process keeps beside the log for its commands and folds (libs/application
 * command-handling): the folds of recently used streams, the queue of commands per stream, the
 * snapshot store long streams are folded from, and the clock that stamps what they append. Made once, with the event store, by the composition
 * root (platform.module.ts), which gives it to the store (`withFolds`): every holder of that store
 * (handlers, process managers, routers) shares one cache and one queue per stream.
 */
export class StreamFolds {
  readonly cache: FoldCache<CachedFold>;
  readonly snapshots: SnapshotStore | null;
  readonly snapshotEvery: number;
  readonly clock: Clock;
  private readonly queues = new Map<string, Promise<unknown>>();
  // One stream can be folded by more than one decider: a cache key names the evolve function too.
  private readonly evolveIds = new Map<object, string>();

  constructor(options: StreamFoldsOptions) {
    this.cache = new FoldCache(options.maxBytes);
    this.snapshots = options.snapshots ?? null;
    this.snapshotEvery = options.snapshotEvery ?? 0;
    this.clock = options.clock ?? systemClock;
  }

  /** The cache key prefix of an evolve function: deciders are module constants, so this map stays as small as their number. */
  prefixOf(evolve: object): string {
    let prefix = this.evolveIds.get(evolve);
    if (prefix === undefined) this.evolveIds.set(evolve, (prefix = `${this.evolveIds.size}:`));
    return prefix;
  }

  /**
   * Runs commands on one stream one after another within this process: concurrent requests on a
   * hot account queue here instead of racing to the same expected revision and retrying. Other
   * processes are still kept out by the expected revision.
   */
  serialize<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.queues.set(streamId, tail);
    void tail.then(() => {
      if (this.queues.get(streamId) === tail) this.queues.delete(streamId);
    });
    return run;
  }
}

/**
 * The store with this process's folds (the port's `folds`): done once where the store is composed
 * (platform.module.ts), or by a test that composes its own. A bare adapter has none and folds
 * every read from the stream's start, with no queue.
 */
export function withFolds<T extends EventStore>(store: T, folds: StreamFolds): T & { readonly folds: StreamFolds } {
  // Configurable, so a test's Proxy of the store (testing/another-process.ts) may answer with folds of its own.
  return Object.defineProperty(store, 'folds', { value: folds, enumerable: false, configurable: true }) as T & {
    readonly folds: StreamFolds;
  };
}

/** A process's folds with the default budget and no snapshots: a test's, or a tool's that folds without a platform module. */
export const processFolds = (options: Partial<StreamFoldsOptions> = {}) =>
  new StreamFolds({ maxBytes: 16 * 1024 * 1024, ...options });
