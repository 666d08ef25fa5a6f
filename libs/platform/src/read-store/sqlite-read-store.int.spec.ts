import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeReadStoreContract } from './read-store.contract';
import { SqliteReadStore } from './sqlite-read-store';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describeReadStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
  dirs.push(dir);
  return new SqliteReadStore(join(dir, 'read-models.db'));
});
