import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexesOf } from '@app/platform/read-store/read-index';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';
import { READ_MODELS } from '../read-models';
import { monthPage } from './statement-month';

/**
 * A statement page (decisions §17) searches the (account, mode, month) index and sorts nothing: a
 * month costs its own entries, never the account's history before or after it (as
 * list-query-plans.int.spec.ts proves of the lists).
 */
describe('statement query plans (SQLite)', () => {
  let dir: string;
  let store: SqliteReadStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statement-plans-'));
    store = new SqliteReadStore(join(dir, 'read-models.db'));
    await store.ensureIndexes(indexesOf(READ_MODELS));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const account = 'acc_01J00000000000000000000000';
  const finds = [
    monthPage(account, 'sandbox', '2026-11', ''),
    monthPage(account, 'live', '2026-02', 'ste_01J000000000000000000000000000000012'),
  ];
  const planOf = (query: (typeof finds)[number]) => store.explainFind('account_transactions', query).join(' | ');

  it('each page searches the month index and neither scans nor sorts', () => {
    for (const query of finds) {
      const plan = planOf(query);
      expect(plan).toMatch(/^SEARCH documents USING INDEX cx:account_transactions:account_id,mode,month/);
      expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });

  it('the check fails without the month index (so the test can fail)', async () => {
    await store.ensureIndexes(
      indexesOf(
        READ_MODELS.map((p) =>
          p.collection === 'account_transactions' ? { ...p, indexes: [['account_id', 'mode']] } : p,
        ),
      ),
    );
    expect(planOf(finds[0])).not.toMatch(/INDEX cx:account_transactions:account_id,mode,month/);
    await store.ensureIndexes(indexesOf(READ_MODELS));
  });
});
