import type { CheckpointStore } from '../coordination/checkpoint-store.port';
import type { ReadStore } from '../read-store/read-store.port';

/**
 * The read store's checkpoints through the runtime's port: the readers whose position lives beside
 * the read models (the projector's projections, the publisher) rather than in the coordination
 * store. A save is a commit of its own; the projector instead stores its positions in the commit
 * of its documents (its checkpoint is `owned`), so only the publisher saves through this.
 */
export function readStoreCheckpoints(readStore: ReadStore): CheckpointStore {
  return {
    getCheckpoint: (name) => readStore.getCheckpoint(name),
    saveCheckpoint: (name, position) => readStore.apply([], { [name]: position }),
  };
}
