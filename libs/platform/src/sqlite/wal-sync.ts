import { close, fsync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';

/**
 * Durable commits without waiting for the disk on the event loop (issue 20). A store that writes
 * from a process's main thread (better-sqlite3 is synchronous) with `synchronous = FULL` stops
 * the whole process for an fsync per commit: 1-3 ms each on this machine's disk, 65 ms at its
 * p99 under load, and the webhook worker made four per delivery.
 *
 * Instead, the connection commits with `synchronous = NORMAL` (in WAL mode a commit then writes
 * its frames to the WAL without syncing it), and each write awaits `synced()`: one fsync of the
 * WAL file on libuv's thread pool, shared by every commit made before it started (group commit).
 * A write resolves only once its frames are on disk, as with FULL: SQLite's recovery keeps every
 * complete commit found in the WAL, and a checkpoint syncs the WAL before copying it into the
 * database (and the database after). What differs: another connection may read a commit in the
 * moment between it and its sync (with FULL the sync comes first); a power cut then takes it back,
 * with everything after it, never a part of it (frames are synced in the order written).
 *
 * Needs WAL mode and a connection kept open (SQLite deletes the WAL only when the last connection
 * closes; this one is the file's until `close()`).
 */
export class WalSync {
  private fd: number | null = null;
  private running: Promise<void> | null = null;
  private waiting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {
    if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal')
      throw new Error(`${file}: WalSync needs journal_mode=WAL`);
    db.pragma('synchronous = NORMAL');
  }

  /** Resolves once everything this connection committed before the call is on disk. */
  synced(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.file} is closed`));
    // A sync not started yet covers this commit; one already running may have started before it.
    if (this.waiting) return this.waiting;
    if (!this.running) {
      this.running = this.sync().finally(() => (this.running = null));
      return this.running;
    }
    this.waiting = this.running
      .catch(() => undefined)
      .then(() => {
        this.waiting = null;
        return this.synced();
      });
    return this.waiting;
  }

  private sync(): Promise<void> {
    // Opened at the first sync: the WAL exists once the connection has committed.
    this.fd ??= openSync(`${this.file}-wal`, 'r');
    const fd = this.fd;
    return new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
  }

  /**
   * Waits for the syncs asked for, runs `closeDatabase`, then lets go of the WAL: the database is
   * closed first so that this descriptor is never the last one SQLite's locks see closing.
   */
  async close(closeDatabase: () => void): Promise<void> {
    await Promise.allSettled([this.waiting, this.running]);
    this.closed = true;
    closeDatabase();
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}
