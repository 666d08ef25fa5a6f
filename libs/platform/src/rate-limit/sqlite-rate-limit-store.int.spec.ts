import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { clockReading } from '../clock';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { SqliteRateLimitStore } from './sqlite-rate-limit-store';

const dir = mkdtempSync(join(tmpdir(), 'rate-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeRateLimitStoreContract('sqlite', async (clock) => new SqliteRateLimitStore(join(dir, 'rate-limits.db'), clock));

describe('SqliteRateLimitStore across processes', () => {
  it('shares the buckets of one file between two connections (two API processes on one DATA_DIR)', async () => {
    const now = clockReading(() => 5_000);
    const [a, b] = [
      new SqliteRateLimitStore(join(dir, 'shared.db'), now),
      new SqliteRateLimitStore(join(dir, 'shared.db'), now),
    ];
    const bucket = { capacity: 2, refillPerMs: 0.001 };
    const takes = [await a.take('k', bucket), await b.take('k', bucket), await a.take('k', bucket)];
    expect(takes.map((t) => t.allowed)).toEqual([true, true, false]);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('SqliteRateLimitStore housekeeping', () => {
  it('drops buckets that are full again, so the table holds active callers only', async () => {
    let now = 0;
    const file = join(dir, 'sweep.db');
    const store = new SqliteRateLimitStore(
      file,
      clockReading(() => now),
    );
    const bucket = { capacity: 2, refillPerMs: 0.002 };
    // 1000 one-off callers, each idle (full again) a second later.
    for (let i = 0; i < 1000; i++) {
      await store.take(`caller-${i}`, bucket);
      now += 1000;
    }
    const rows = new Database(file, { readonly: true }).prepare('SELECT COUNT(*) AS n FROM rate_limits').get() as {
      n: number;
    };
    expect(rows.n).toBeLessThan(5);
    await store.close();
  });
});
