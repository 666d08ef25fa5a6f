import type { SnapshotStore, StoredSnapshot } from '@app/platform/snapshots/snapshot-store.port';

/** A snapshot store in memory, keeping the newest snapshot per key and stream, for fold tests. */
export class MemorySnapshots implements SnapshotStore {
  readonly saved = new Map<string, StoredSnapshot>();
  async load(streamId: string, key: string) {
    return this.saved.get(`${key}/${streamId}`) ?? null;
  }
  async save(s: StoredSnapshot) {
    const current = this.saved.get(`${s.key}/${s.streamId}`);
    if (!current || current.revision < s.revision) this.saved.set(`${s.key}/${s.streamId}`, s);
  }
  async close() {}
}
