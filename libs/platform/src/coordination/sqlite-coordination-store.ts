import type Database from 'better-sqlite3';
import type { Clock } from '../clock';
import { checkpointInBackground } from '../sqlite/background-checkpoints';
import { openSqlite } from '../sqlite/open-sqlite';
import type { CoordinationStore } from './coordination-store.port';

/**
 * Checkpoints and leases in the embedded read-models database, through a connection of its own:
 * the `checkpoints` table is the read store's (so process-manager checkpoints kept there before
 * stay valid), `leases` is new. Every process on the machine opens the same file, and each
 * statement below is one atomic compare-and-set, so they coordinate through SQLite's write lock.
 */
export class SqliteCoordinationStore implements CoordinationStore {
  private readonly db: Database.Database;
  private readonly stmts;
  /** Started by the first write; the read store's connection in the same process shares the thread. */
  private releaseCheckpoints: (() => Promise<void>) | null = null;

  constructor(
    private readonly file: string,
    private readonly clock: Clock,
  ) {
    // Losing the last writes only re-runs idempotent work or waits out a lease.
    this.db = openSqlite(file, 'rebuildable');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
    `);
    this.stmts = {
      getCheckpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      saveCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)',
      ),
      // The WHERE of an upsert makes it a compare-and-set: no row changes unless the lease is ours or expired.
      acquire: this.db.prepare<[string, string, number, number]>(
        `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE leases.holder = excluded.holder OR leases.expires_at <= ?`,
      ),
      release: this.db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?'),
    };
  }

  async getCheckpoint(name: string): Promise<number> {
    return this.stmts.getCheckpoint.get(name)?.position ?? 0;
  }

  /** Before a write: the file's WAL checkpoints run on a thread (background-checkpoints.ts), never on this commit. */
  private writing(): void {
    this.releaseCheckpoints ??= checkpointInBackground(this.db, this.file);
  }

  async saveCheckpoint(name: string, position: number): Promise<void> {
    this.writing();
    this.stmts.saveCheckpoint.run(name, position);
  }

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    this.writing();
    const now = this.clock.now();
    return this.stmts.acquire.run(name, holder, now + ttlMs, now).changes === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    this.writing();
    this.stmts.release.run(name, holder);
  }

  async close(): Promise<void> {
    await this.releaseCheckpoints?.();
    if (this.db.open) this.db.close();
  }
}
