import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSnapshotStoreContract } from './snapshot-store.contract';
import { SqliteSnapshotStore } from './sqlite-snapshot-store';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describeSnapshotStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshots-'));
  dirs.push(dir);
  return new SqliteSnapshotStore(join(dir, 'snapshots.db'));
});
