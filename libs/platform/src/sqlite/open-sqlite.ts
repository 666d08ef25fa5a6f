import Database from 'better-sqlite3';

/**
 * Every embedded store opens SQLite the same way: WAL so readers in other processes (a separate
 * projector) never block the writer, and a busy timeout for the moments two processes write.
 * `durable` stores fsync each commit (synchronous=FULL); rebuildable ones can skip it.
 */
export function openSqlite(file: string, durability: 'durable' | 'rebuildable'): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(durability === 'durable' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
