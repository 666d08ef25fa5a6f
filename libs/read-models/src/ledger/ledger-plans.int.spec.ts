import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexesOf } from '@app/platform/read-store/read-index';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';
import { READ_MODELS } from '../read-models';
import { LEDGER, SUMS, accountId, bookOf, currencyId } from './ledger-documents';
import { ledgerFinds } from './ledger-view';

/**
 * Every find the ledger issues (a book's accounts and currencies, the sums, a series' latest row
 * at or before a position, a book's latest tick at or before a time) searches a declared index of
 * the collection, never the table, and sorts nothing: a ledger read costs its book, not its history
 * (as list-query-plans.int.spec.ts proves of the lists).
 */
describe('ledger query plans (SQLite)', () => {
  let dir: string;
  let store: SqliteReadStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-plans-'));
    store = new SqliteReadStore(join(dir, 'read-models.db'));
    await store.ensureIndexes(indexesOf(READ_MODELS));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const book = bookOf('org_01J0000000000000000000000', 'sandbox');
  const finds = [
    ledgerFinds.listed({ book, type: 'account' }),
    ledgerFinds.listed({ book, type: 'currency' }, currencyId(book, 'USD')),
    ledgerFinds.listed({ book: SUMS, type: 'sum' }),
    ledgerFinds.row(accountId(book, 'funding:USD'), 1_234),
    ledgerFinds.row(currencyId(book, 'USD'), 0),
    ledgerFinds.tick(book),
    ledgerFinds.tick(book, 1_700_000_000_000),
  ];

  it('each searches a declared index of the ledger, and none scans or sorts', () => {
    const bad: string[] = [];
    for (const query of finds) {
      const plan = store.explainFind(LEDGER, query);
      const searchesIndex = plan.some((step) => step.startsWith(`SEARCH documents USING INDEX cx:${LEDGER}:`));
      if (!searchesIndex || plan.some((step) => /^SCAN|TEMP B-TREE|PRIMARY KEY/.test(step)))
        bad.push(`${JSON.stringify(query)}: ${plan.join(' | ')}`);
    }
    expect(bad).toEqual([]);
  });

  it('the check fails without the indexes (so the test can fail)', async () => {
    await store.ensureIndexes([]);
    expect(store.explainFind(LEDGER, finds[3]).join(' ')).not.toMatch(/USING INDEX cx:/);
    await store.ensureIndexes(indexesOf(READ_MODELS));
  });
});
