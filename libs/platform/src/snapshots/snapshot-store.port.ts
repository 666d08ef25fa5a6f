/**
 * A folded state of one stream at one revision, stored beside the log so a long stream is folded
 * from there instead of from its first event. A cache, never a source of truth: losing one costs a
 * longer fold. `key` names the decider and its evolve version, so a changed evolve never reads a
 * snapshot an older one wrote. `state` is opaque text (the application encodes it).
 */
export interface StoredSnapshot {
  readonly streamId: string;
  readonly key: string;
  readonly revision: number;
  readonly state: string;
}

export interface SnapshotStore {
  /** The latest snapshot of the stream under this key, or null. */
  load(streamId: string, key: string): Promise<StoredSnapshot | null>;
  /**
   * Keeps the snapshot unless one at the same or a later revision is already stored; older ones
   * stay readable by revision, so an `as_of` read folds from the nearest one before its point.
   */
  save(snapshot: StoredSnapshot): Promise<void>;
  /** The revisions of every snapshot saved for the stream under this key, ascending. */
  revisions(streamId: string, key: string): Promise<number[]>;
  /** The snapshot saved at exactly this revision, or null. */
  loadAt(streamId: string, key: string, revision: number): Promise<StoredSnapshot | null>;
  close(): Promise<void>;
}

export const SNAPSHOT_STORE = Symbol('SNAPSHOT_STORE');
