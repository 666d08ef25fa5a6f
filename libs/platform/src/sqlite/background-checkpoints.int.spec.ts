import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointInBackground } from './background-checkpoints';
import { openSqlite } from './open-sqlite';

describe('checkpointInBackground: WAL checkpoints on a thread of their own', () => {
  let dir: string;
  const file = () => join(dir, 'c.db');
  const until = async (check: () => boolean, ms = 45_000) => {
    for (const end = Date.now() + ms; !check();) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bg-checkpoints-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('raises the connection’s own checkpoint bound, and the thread copies the WAL into the database', async () => {
    const db = openSqlite(file(), 'rebuildable');
    db.exec('CREATE TABLE t (v TEXT)');
    const release = checkpointInBackground(db, file(), { intervalMs: 20 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const before = statSync(file()).size;
    // 2000 commits of a page each: past the default bound of 1000 pages, below the raised one, so
    // whatever reaches the database file was copied there by the thread.
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(3000));
    await until(() => statSync(file()).size > before + 4_000_000);
    await release();
    db.close();
  });

  it('a file is checkpointed while any connection writing it has not released it', async () => {
    const [a, b] = [openSqlite(file(), 'rebuildable'), openSqlite(file(), 'rebuildable')];
    a.exec('CREATE TABLE t (v TEXT)');
    const releaseA = checkpointInBackground(a, file(), { intervalMs: 20 });
    const releaseB = checkpointInBackground(b, join(dir, '.', 'c.db'), { intervalMs: 20 });
    expect(b.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await releaseA();
    await releaseA(); // twice is once
    const insert = b.prepare('INSERT INTO t VALUES (?)');
    const before = statSync(file()).size;
    for (let i = 0; i < 500; i++) insert.run('x'.repeat(3000));
    await until(() => statSync(file()).size > before + 1_000_000); // B's use keeps the thread
    await releaseB();
    a.close();
    b.close();
  });
});
