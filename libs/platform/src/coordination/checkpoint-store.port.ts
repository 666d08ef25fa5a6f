/**
 * Where a reader of the log resumes (a process manager today). A checkpoint only moves forward:
 * a save below the stored position changes nothing, so a slow replica that lost its lease, or a
 * save that arrives late, can never send the next holder back over work already done.
 */
export interface CheckpointStore {
  /** 0 before the first save. */
  getCheckpoint(name: string): Promise<number>;
  /** Moves the checkpoint to `position` unless it is already there or beyond. */
  saveCheckpoint(name: string, position: number): Promise<void>;
}

export const CHECKPOINT_STORE = Symbol('CHECKPOINT_STORE');
