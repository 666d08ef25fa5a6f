import type { CheckpointStore } from '@app/platform/coordination/checkpoint-store.port';

/** An in-memory checkpoint store (one name is enough for the specs that use it), moving forward only. */
export class MemoryCheckpoints implements CheckpointStore {
  position = 0;

  getCheckpoint(): Promise<number> {
    return Promise.resolve(this.position);
  }

  saveCheckpoint(_name: string, position: number): Promise<void> {
    this.position = Math.max(this.position, position);
    return Promise.resolve();
  }
}
