import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from './open-sqlite';
import { WalSync } from './wal-sync';

describe('WalSync: durable commits with the fsync off the event loop, shared', () => {
  let dir: string;
  let db: Database.Database;
  let wal: WalSync;
  const file = () => join(dir, 'w.db');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-sync-'));
    db = openSqlite(file(), 'durable');
    wal = new WalSync(db, file());
    db.exec('CREATE TABLE t (v TEXT)');
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await wal.close(() => db.close());
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits without syncing on this thread, and syncs the WAL file when asked', async () => {
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    const fsync = jest.spyOn(fs, 'fsync');
    db.prepare('INSERT INTO t VALUES (?)').run('a');
    await wal.synced();
    expect(fsync).toHaveBeenCalledTimes(1);
    expect(fs.readlinkSync(`/proc/self/fd/${fsync.mock.calls[0][0] as number}`)).toBe(`${file()}-wal`);
  });

  it('one fsync for every commit made before it started; a commit made while it runs waits for the next', async () => {
    const fsync = jest.spyOn(fs, 'fsync');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const first = Array.from({ length: 20 }, (_, i) => (insert.run(`a${i}`), wal.synced()));
    // The first call started a sync; the 19 after it share the one that follows it.
    const second = Array.from({ length: 20 }, (_, i) => (insert.run(`b${i}`), wal.synced()));
    await Promise.all([...first, ...second]);
    expect(fsync).toHaveBeenCalledTimes(2);
    let secondSyncStarted = false;
    fsync.mockImplementationOnce(((fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      secondSyncStarted = true;
      fs.fdatasync(fd, cb);
    }) as typeof fs.fsync);
    insert.run('c');
    const late = wal.synced();
    expect(secondSyncStarted).toBe(true);
    await late;
  });

  it('a failed fsync fails the writes waiting on it, and the next ones try again', async () => {
    jest
      .spyOn(fs, 'fsync')
      .mockImplementationOnce(((_fd: number, cb: (err: NodeJS.ErrnoException | null) => void) =>
        cb(Object.assign(new Error('EIO'), { code: 'EIO' }))) as typeof fs.fsync);
    db.prepare('INSERT INTO t VALUES (?)').run('a');
    await expect(wal.synced()).rejects.toThrow('EIO');
    await expect(wal.synced()).resolves.toBeUndefined();
  });

  it('refuses a connection that is not in WAL mode', () => {
    const memory = new Database(':memory:');
    expect(() => new WalSync(memory, ':memory:')).toThrow(/journal_mode=WAL/);
    memory.close();
  });
});
