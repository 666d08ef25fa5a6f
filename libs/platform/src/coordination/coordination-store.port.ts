import type { CheckpointStore } from './checkpoint-store.port';
import type { LeaseStore } from './lease-store.port';

/**
 * Both ports in one adapter over the read models' database (the store every replica shares);
 * the platform closes it on shutdown.
 */
export interface CoordinationStore extends CheckpointStore, LeaseStore {
  close(): Promise<void>;
}
