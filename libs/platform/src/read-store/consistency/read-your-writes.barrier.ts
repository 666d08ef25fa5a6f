import type { EventStore } from '../../event-store/event-store.port';
import type { Projection } from '../projection';
import type { ProjectionProgress } from './projection-progress';
import { ReadModelLaggingError } from './read-model-lagging.error';

/**
 * Read-your-writes for reads served by read models. Every write acknowledged before a read began
 * sits at or below the log head read at that moment, so waiting until the collection's
 * projections reach that head includes it, from any process and without session state.
 */
export class ReadYourWritesBarrier {
  private readonly projectionsOf = new Map<string, string[]>();

  constructor(
    private readonly store: EventStore,
    private readonly progress: ProjectionProgress,
    projections: readonly Projection[],
    private readonly timeoutMs: number,
  ) {
    for (const p of projections)
      this.projectionsOf.set(p.collection, [...(this.projectionsOf.get(p.collection) ?? []), p.name]);
  }

  /** Resolves once `collection` includes the current head; throws ReadModelLaggingError past the bound. */
  async await(collection: string): Promise<void> {
    const names = this.projectionsOf.get(collection);
    // A collection no projection writes has nothing to wait for.
    if (!names) return;
    const head = await this.store.headPosition();
    // How long this request waited: a duration, measured with performance.now() rather than the clock.
    const started = performance.now();
    if (await this.progress.reach(names, head, this.timeoutMs)) return;
    throw new ReadModelLaggingError(collection, head, Math.round(performance.now() - started));
  }
}
