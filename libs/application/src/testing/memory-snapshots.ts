import type { SnapshotStore, StoredSnapshot } from '@app/platform/snapshots/snapshot-store.port';

/** A snapshot store in memory, keeping the newest snapshot per key and stream, for fold tests. */
export class MemorySnapshots implements SnapshotStore {
  readonly saved = new Map<string, StoredSnapshot>();
  private readonly kept = new Map<string, StoredSnapshot>();
  async load(streamId: string, key: string) {
    return this.saved.get(`${key}/${streamId}`) ?? null;
  }
  async save(s: StoredSnapshot) {
    const current = this.saved.get(`${s.key}/${s.streamId}`);
    if (!current || current.revision < s.revision) this.saved.set(`${s.key}/${s.streamId}`, s);
    if (!this.kept.has(`${s.key}/${s.streamId}@${s.revision}`))
      this.kept.set(`${s.key}/${s.streamId}@${s.revision}`, s);
  }
  async revisions(streamId: string, key: string) {
    return [...this.kept.keys()]
      .filter((k) => k.startsWith(`${key}/${streamId}@`))
      .map((k) => Number(k.slice(k.lastIndexOf('@') + 1)))
      .sort((a, b) => a - b);
  }
  async loadAt(streamId: string, key: string, revision: number) {
    return this.kept.get(`${key}/${streamId}@${revision}`) ?? null;
  }
  async close() {}
}
