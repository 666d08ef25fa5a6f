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
  enterWal(db);
  db.pragma(durability === 'durable' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return db;
}

/** How often an open tries to put a new file in WAL mode while other processes do too: about 5 s. */
const WAL_SWITCH_TRIES = 500;
const WAL_SWITCH_PAUSE_MS = 10;

/**
 * Switching a new file to WAL needs it to itself for a moment, and SQLite answers SQLITE_BUSY at
 * once, without its busy handler, when another connection holds it: six processes of one
 * deployment opening a fresh DATA_DIR together failed their start that way (a CI run; 3 to 12 of
 * 240 such opens in a race of processes, `open-sqlite.int.spec.ts`). So the switch is tried again,
 * briefly, as the busy timeout would have. A file already in WAL mode answers at once.
 */
function enterWal(db: Database.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let tries = 1; ; tries++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || tries >= WAL_SWITCH_TRIES) throw error;
      // A synchronous pause: an open is synchronous, and this happens only while a new file is switched.
      Atomics.wait(pause, 0, 0, WAL_SWITCH_PAUSE_MS);
    }
  }
}
