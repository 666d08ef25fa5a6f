import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { clockReading, systemClock } from '../clock';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';

const dir = mkdtempSync(join(tmpdir(), 'idempotency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every instance opens one file, as the API processes on one DATA_DIR do.
describeIdempotencyStoreContract(
  'sqlite',
  async (clock) => new SqliteIdempotencyStore(join(dir, 'idempotency.db'), clock),
);

const count = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('SqliteIdempotencyStore housekeeping', () => {
  it('deletes expired keys (answered or abandoned), never a live claim', async () => {
    let now = 0;
    const file = join(dir, 'sweep.db');
    const store = new SqliteIdempotencyStore(
      file,
      clockReading(() => now),
    );
    const claim = (key: string, over = {}) =>
      store.claim({ scope: 's', key, fingerprint: 'f', owner: key, leaseMs: 1_000, ttlMs: 10_000, ...over });
    for (let i = 0; i < 100; i++) {
      await claim(`answered-${i}`);
      await store.complete('s', `answered-${i}`, `answered-${i}`, {
        status: 201,
        headers: {},
        body: Buffer.from('{}'),
      });
    }
    await claim('abandoned');
    await claim('running', { ttlMs: 1_000 });
    now = 10_000;
    expect(await store.renew('s', 'running', 'running', 60_000)).toBe(true);
    expect(count(file)).toBe(102);
    // The first claim a minute after the last sweep sweeps; `sweep()` does it at once.
    now = 61_000;
    await claim('fresh');
    expect(count(file)).toBe(2);
    expect(await store.sweep()).toBe(0);
    await store.close();
  });
});

describe('SqliteIdempotencyStore across processes', () => {
  it('lets one of several processes claim a key, each claiming under the write lock', async () => {
    const file = join(dir, 'processes.db');
    new SqliteIdempotencyStore(file, systemClock).close();
    const script = join(dir, 'claimer.js');
    // Plain JavaScript on better-sqlite3, the statement the adapter runs, so the child needs no TypeScript.
    writeFileSync(
      script,
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const db = new Database(process.argv[2]); db.pragma('journal_mode = WAL'); db.pragma('busy_timeout = 5000');
       const upsert = db.prepare(\`INSERT INTO idempotency_keys (scope, key, fingerprint, owner, lease_until, expires_at) VALUES ('s', 'k', 'f', ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET owner = excluded.owner WHERE idempotency_keys.expires_at <= ?\`);
       let claimed = 0; const now = Date.now();
       for (let i = 0; i < 50; i++) claimed += db.transaction(() => upsert.run(process.argv[3] + i, now + 30000, now + 60000, now).changes).immediate();
       process.send(claimed); db.close();`,
    );
    const results = await Promise.all(
      [0, 1, 2].map(
        (n) =>
          new Promise<number>((resolve, reject) => {
            const child = fork(script, [file, `p${n}-`]);
            child.once('message', (m) => resolve(Number(m)));
            child.once('error', reject);
          }),
      ),
    );
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
  });
});
