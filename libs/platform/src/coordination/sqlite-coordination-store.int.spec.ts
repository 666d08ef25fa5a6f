import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCoordinationStoreContract } from './coordination-store.contract';
import { SqliteCoordinationStore } from './sqlite-coordination-store';

const dir = mkdtempSync(join(tmpdir(), 'coordination-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Both instances open one file, as two processes on one machine do.
describeCoordinationStoreContract(
  'sqlite',
  async (clock) => new SqliteCoordinationStore(join(dir, 'read-models.db'), clock),
);
