import Database from 'better-sqlite3';

/**
 * Each connection's page cache, in KiB. better-sqlite3 builds SQLite with 16 MB
 * (`SQLITE_DEFAULT_CACHE_SIZE=-16000`), and a process holds about ten connections: they filled the
 * worker's malloc heap to 61 MB by 10,000 payouts (issue 26: RSS ≤ 256 MB). The OS caches the
 * files' pages anyway, so a page missed here is a copy from memory, not a disk read.
 */
export const PAGE_CACHE_KIB = 1024;

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
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return db;
}
