import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bookKey, foldLedgerEvent, newLedgers, type LedgerBook, type MoneyEvent } from '@app/domain/ledger';
import type { LedgerView } from './get-ledger.query';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { upcast } from '@app/platform/event-store/upcasters';
import { BatchWrites } from '@app/platform/read-store/batch-writes';
import { handlesEvent } from '@app/platform/read-store/projector';
import { indexesOf } from '@app/platform/read-store/read-index';
import { MongoReadStore } from '@app/platform/read-store/mongo-read-store';
import type { ReadStore } from '@app/platform/read-store/read-store.port';
import { useEmbeddedStores } from '@app/platform/testing/embedded-stores';
import { LEDGER, bookOf, sumId } from './ledger-documents';
import { ledgerAt, positionOf } from './ledger-view';
import { ledgerProjection } from './ledger.projection';

/**
 * The projection against the domain's fold of the whole log in memory (what `replay --verify`
 * folds): the v2 fixture holds every money shape (payouts settled, failed and reversed, book
 * transfers, card holds captured in part and with FX, collections and refunds, two organizations).
 */
const FIXTURE = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'event-log-v2-before-ledger.jsonl');
const log = (): RecordedEvent[] =>
  readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => upcast(JSON.parse(line) as RecordedEvent));

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A book of the in-memory fold as GET /ledger shows it. */
function foldView(book: LedgerBook | undefined, position: number): LedgerView {
  const figures = (b: {
    debits_posted: bigint;
    credits_posted: bigint;
    debits_pending: bigint;
    credits_pending: bigint;
  }) => ({
    debits_posted: b.debits_posted,
    credits_posted: b.credits_posted,
    debits_pending: b.debits_pending,
    credits_pending: b.credits_pending,
  });
  return {
    position,
    currencies: [...(book?.currencies ?? [])]
      .sort(([a], [b]) => byCode(a, b))
      .map(([currency, t]) => ({ currency, ...figures(t) })),
    accounts: [...(book?.accounts.values() ?? [])]
      .sort((a, b) => byCode(a.id, b.id))
      .map((a) => ({ id: a.id, kind: a.kind, currency: a.currency, ...figures(a) })),
  };
}

/** Projects events as the projector does: a batch planned on what the store and the batch hold, then applied. */
async function project(store: ReadStore, events: readonly RecordedEvent[], batchSize: number): Promise<void> {
  for (let i = 0; i < events.length; i += batchSize) {
    const batch = new BatchWrites(store);
    for (const event of events.slice(i, i + batchSize))
      if (handlesEvent(ledgerProjection, event)) await batch.add(ledgerProjection, event);
    await store.apply(batch.writes, {
      [ledgerProjection.name]: events[Math.min(i + batchSize, events.length) - 1].position,
    });
  }
}

const everything = async (store: ReadStore) => (await store.find(LEDGER, { limit: 1_000_000 })).items;

/** Projects the v2 log into `store` and compares every book at every position with the fold. */
async function everyPositionAsFolded(store: ReadStore): Promise<void> {
  const events = log();
  const ledgers = newLedgers();
  const books = [...new Set(events.map((e) => bookKey(e.metadata.organization_id, modeOf(e.metadata, e.data))))];
  const expected: Array<{ position: number; views: Map<string, LedgerView> }> = [];
  for (const event of events) {
    const key = bookKey(event.metadata.organization_id, modeOf(event.metadata, event.data));
    expect(foldLedgerEvent(ledgers, key, event as unknown as MoneyEvent)).toBeNull();
    expected.push({
      position: event.position,
      views: new Map(books.map((b) => [b, foldView(ledgers.books.get(b), event.position)])),
    });
  }
  // Batches of 7: a hold and its settlement meet within a batch and across batches.
  await project(store, events, 7);
  expect(expected.length).toBeGreaterThan(100);
  for (const { position, views } of expected) {
    for (const [key, view] of views) {
      const [organization, mode] = key.split('/');
      expect({ position, key, view: await ledgerAt(store, bookOf(organization, mode), position) }).toEqual({
        position,
        key,
        view,
      });
    }
  }
}

describe('the ledger projection', () => {
  const stores = useEmbeddedStores('ledger-projection');
  beforeEach(() => stores.readStore.ensureIndexes(indexesOf([ledgerProjection])));

  it('answers, at every position of a log with every money shape, what the fold of the log up to there gives', () =>
    everyPositionAsFolded(stores.readStore));

  it('changes nothing when a batch is applied again (every write is position-guarded)', async () => {
    const events = log();
    await project(stores.readStore, events, 50);
    const before = await everything(stores.readStore);
    await project(stores.readStore, events.slice(-50), 50);
    expect(await everything(stores.readStore)).toEqual(before);
  });

  it('keeps sums past 2^53 to the unit, as decimal strings', async () => {
    const meta = (position: number) => ({
      event_id: `e${position}`,
      organization_id: 'org_A',
      correlation_id: 'c',
      causation_id: 'c',
      schema_version: 1,
      occurred_at: 1_000 + position,
      mode: 'sandbox' as const,
    });
    const event = (position: number, type: string, data: Record<string, unknown>): RecordedEvent => ({
      id: `e${position}`,
      streamId: `account-${String(data.account_id)}`,
      type,
      data,
      metadata: meta(position),
      revision: 0,
      position,
    });
    const funded = (position: number, account: string, amount: number, current: number) =>
      event(position, 'AccountFunded', {
        account_id: account,
        transaction_id: `txn_${position}`,
        amount,
        currency: 'USD',
        source: 'sandbox',
        balance_after: { available: current, current },
        funded: 1,
      });
    const events = [
      event(1, 'AccountOpened', { account_id: 'acc_1', currency: 'USD' }),
      event(2, 'AccountOpened', { account_id: 'acc_2', currency: 'USD' }),
      funded(3, 'acc_1', 5e15, 5e15),
      funded(4, 'acc_2', 5e15, 5e15),
    ];
    for (let i = 1; i <= 5; i++) events.push(funded(4 + i, 'acc_1', 1, 5e15 + i));
    await project(stores.readStore, events, 3);
    const view = await ledgerAt(stores.readStore, bookOf('org_A', 'sandbox'), 9);
    expect(view.accounts.find((a) => a.id === 'funding:USD')?.debits_posted).toBe(10_000_000_000_000_005n);
    expect(view.currencies).toEqual([
      {
        currency: 'USD',
        debits_posted: 10_000_000_000_000_005n,
        credits_posted: 10_000_000_000_000_005n,
        debits_pending: 0n,
        credits_pending: 0n,
      },
    ]);
    expect(await stores.readStore.get(LEDGER, sumId('sandbox', 'USD'))).toMatchObject({
      debits_posted: '10000000000000005',
      credits_posted: '10000000000000005',
    });
    // as_of a time: the book's last move at or before it.
    expect(await positionOf(stores.readStore, bookOf('org_A', 'sandbox'), { time: 1_006 }, 9)).toBe(6);
    expect(await positionOf(stores.readStore, bookOf('org_A', 'sandbox'), { time: 1_002 }, 9)).toBe(0);
    expect((await ledgerAt(stores.readStore, bookOf('org_A', 'sandbox'), 6)).currencies[0].debits_posted).toBe(
      10_000_000_000_000_002n,
    );
  });
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl) {
  describe('the ledger projection (MongoDB)', () => {
    let store: MongoReadStore;
    beforeAll(async () => {
      store = new MongoReadStore(mongoUrl, `ledger_${Date.now().toString(36)}`);
      await store.ensureIndexes(indexesOf([ledgerProjection]));
    });
    afterAll(() => store.close());

    it('answers, at every position, what the fold gives: its documents and finds as on SQLite', () =>
      everyPositionAsFolded(store));
  });
}
