import { processSignals } from '../../log-reader/process-signals';
import type { Projector } from '../projector';
import type { ReadStore } from '../read-store.port';

/** How far the projections have got, seen from the process that asks. */
export interface ProjectionProgress {
  /** True once every named projection includes `position`; false when `withinMs` runs out first. */
  reach(names: readonly string[], position: number, withinMs: number): Promise<boolean>;
}

/**
 * A process that runs the projector asks it directly: its position is where every projection's
 * checkpoint stands (each batch advances them all), and its waiters wake on the batch itself.
 */
export class ProjectorProgress implements ProjectionProgress {
  constructor(private readonly projector: Projector) {}

  async reach(_names: readonly string[], position: number, withinMs: number): Promise<boolean> {
    if (this.projector.lastPosition >= position) return true;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
    try {
      return await Promise.race([this.projector.waitFor(position).then(() => true as const), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Any other process (every API: the projector runs in a worker) reads the checkpoints the
 * projector stores with its documents, polling with a short, growing interval. Under `npm start`
 * the worker says when it stored checkpoints, which cuts the wait short.
 */
export class StoredCheckpointProgress implements ProjectionProgress {
  constructor(
    private readonly readStore: ReadStore,
    private readonly pollMs: { first: number; max: number } = { first: 2, max: 50 },
  ) {}

  async reach(names: readonly string[], position: number, withinMs: number): Promise<boolean> {
    // A bound on this wait (a duration, on performance.now()), not a time of day the clock gives.
    const deadline = performance.now() + withinMs;
    for (let delay = this.pollMs.first; ; delay = Math.min(delay * 2, this.pollMs.max)) {
      if ((await this.lowest(names)) >= position) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await processSignals.checkpointsMoved.wait(Math.min(delay, left));
    }
  }

  private async lowest(names: readonly string[]): Promise<number> {
    const checkpoints = await Promise.all(names.map((name) => this.readStore.getCheckpoint(name)));
    return Math.min(...checkpoints);
  }
}
