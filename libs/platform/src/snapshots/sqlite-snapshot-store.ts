import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store.port';

/**
 * Snapshots of the embedded deployment in their own file beside the log (`DATA_DIR/snapshots.db`),
 * the latest per stream and key in `snapshots`, every one saved in `snapshot_history` (as_of):
 * not in `events.db`, whose single writer (a worker thread) must never wait on a cache. Rebuildable,
 * so no fsync per write. Writes are synchronous, so none is pending when the store closes.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(file: string) {
    this.db = openSqlite(file, 'rebuildable');
    this.db.exec(`CREATE TABLE IF NOT EXISTS snapshots (
      stream_id TEXT NOT NULL, key TEXT NOT NULL, revision INTEGER NOT NULL, state TEXT NOT NULL,
      PRIMARY KEY (stream_id, key)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS snapshot_history (
      stream_id TEXT NOT NULL, key TEXT NOT NULL, revision INTEGER NOT NULL, state TEXT NOT NULL,
      PRIMARY KEY (stream_id, key, revision)
    ) WITHOUT ROWID`);
    this.stmts = {
      load: this.db.prepare<[string, string], { revision: number; state: string }>(
        'SELECT revision, state FROM snapshots WHERE stream_id = ? AND key = ?',
      ),
      save: this.db.prepare(
        `INSERT INTO snapshots (stream_id, key, revision, state) VALUES (?, ?, ?, ?)
         ON CONFLICT (stream_id, key) DO UPDATE SET revision = excluded.revision, state = excluded.state WHERE excluded.revision > snapshots.revision`,
      ),
      keep: this.db.prepare(
        'INSERT OR IGNORE INTO snapshot_history (stream_id, key, revision, state) VALUES (?, ?, ?, ?)',
      ),
      revisions: this.db.prepare<[string, string], { revision: number }>(
        'SELECT revision FROM snapshot_history WHERE stream_id = ? AND key = ? ORDER BY revision',
      ),
      loadAt: this.db.prepare<[string, string, number], { state: string }>(
        'SELECT state FROM snapshot_history WHERE stream_id = ? AND key = ? AND revision = ?',
      ),
    };
  }

  async load(streamId: string, key: string): Promise<StoredSnapshot | null> {
    const row = this.stmts.load.get(streamId, key);
    return row ? { streamId, key, revision: row.revision, state: row.state } : null;
  }

  async save(s: StoredSnapshot): Promise<void> {
    this.db.transaction(() => {
      this.stmts.save.run(s.streamId, s.key, s.revision, s.state);
      this.stmts.keep.run(s.streamId, s.key, s.revision, s.state);
    })();
  }

  async revisions(streamId: string, key: string): Promise<number[]> {
    return this.stmts.revisions.all(streamId, key).map((r) => r.revision);
  }

  async loadAt(streamId: string, key: string, revision: number): Promise<StoredSnapshot | null> {
    const row = this.stmts.loadAt.get(streamId, key, revision);
    return row ? { streamId, key, revision, state: row.state } : null;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
