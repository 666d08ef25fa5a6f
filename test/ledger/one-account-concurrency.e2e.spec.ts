import {
  customerBalance,
  foldLedgerEvent,
  bookKey,
  bookOf,
  newLedgers,
  type LedgerChange,
  ledgerChangesOf,
  newMovementContext,
  type MoneyEvent,
} from '@app/domain/ledger';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/platform/event-store/event-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';
import { upcast } from '@app/platform/event-store/upcasters';
import { openAccount } from '../accounts/accounts-helpers';
import { authorize, virtualCard } from '../cards/helpers';
import { confirm, createIntent, walletAction } from '../collections/helpers';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { BANK_USD, balanceOf, bookTo, fund, payer, paymentDetail, post, transferBody } from '../transfers/helpers';

/**
 * 50 money operations at once on one account (payouts, card authorizations, refunds, book
 * transfers), more than its balance covers: the account's stream decides each against its
 * available balance, so some are refused and none overdraws. Afterwards the whole log is folded
 * into the ledger: every position balances, the account is never below zero at any position, its
 * ledger balance equals what the API shows, and each movement is one transaction, applied once.
 */
async function readAll(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (let after = 0; ;) {
    const page = await store.readAll({ after, limit: 1000 });
    if (!page.length) return all;
    all.push(...page);
    after = page[page.length - 1].position;
  }
}

describe('50 concurrent money operations on one account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('leave it balanced, never overdrawn, each movement applied once', async () => {
    const p = await payer(t, 'USD', 0);
    const other = await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD' });
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const book = await paymentDetail(t, p.counterparty, bookTo(other.id));
    const card = await virtualCard(t, p.account, { amount: 10_000_000 });
    // Collections to refund later, then just enough money that the burst cannot all pass.
    const paid: string[] = [];
    for (let i = 0; i < 10; i++) {
      const intent = await createIntent(t, p.account, { amount: 2_000 });
      const action = (await confirm(t, intent.id, walletAction()).expect(201)).body as { status: string };
      expect(action.status).toBe('completed');
      paid.push(intent.id);
    }
    await fund(t, p.account, 30_000, 'USD');
    const start = await balanceOf(t, p.account);

    const operations = Array.from({ length: 50 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return post(t, transferBody(p.account, bank, { amount: 3_000 }));
        case 1:
          return authorize(t, card.id, { amount: 2_500, capture: i % 8 === 1 });
        case 2:
          return t.http
            .post(`/payment-intents/${paid[(i >> 2) % paid.length]}/refunds`)
            .set(bearer(KEYS.sandbox))
            .send({ amount: 1_500 });
        default:
          return post(t, transferBody(p.account, book, { amount: 2_000, payment_type: 'book-transfer' }));
      }
    });
    const answers = await Promise.all(operations);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const refusedForMoney = answers.filter(
      (r) => r.status === 422 || r.body?.data?.status_reason === 'insufficient_funds',
    );
    expect(refusedForMoney.length).toBeGreaterThan(0); // the burst asked for more than there was
    expect(answers.filter((r) => r.status === 201).length).toBeGreaterThan(0);
    await t.settle();

    const events = (await readAll(t.app.get<EventStore>(EVENT_STORE))).map((e) => upcast(e) as RecordedEvent);
    const ledgers = newLedgers();
    const context = newMovementContext();
    const postedIds = new Set<string>();
    const pendingIds = new Set<string>();
    for (const event of events) {
      const key = bookKey(event.metadata.organization_id, modeOf(event.metadata, event.data as never));
      const fault = foldLedgerEvent(ledgers, key, event as unknown as MoneyEvent);
      if (fault) throw new Error(`position ${event.position}: ${fault.transaction_id}: ${fault.message}`);
      // Each movement once: no transaction id is posted twice, no hold placed twice.
      const changes = ledgerChangesOf(context, event as unknown as MoneyEvent) as readonly LedgerChange[];
      for (const change of changes) {
        const seen = change.kind === 'posted' ? postedIds : change.kind === 'pending' ? pendingIds : null;
        if (seen?.has(change.transaction_id)) throw new Error(`${change.transaction_id} ${change.kind} twice`);
        seen?.add(change.transaction_id);
      }
      const mine = bookOf(ledgers, key).accounts.get(p.account);
      if (mine) expect(customerBalance(mine).available).toBeGreaterThanOrEqual(0n);
    }
    const books = bookOf(
      ledgers,
      bookKey(events.find((e) => e.streamId === `account-${p.account}`)!.metadata.organization_id, 'sandbox'),
    );
    for (const [currency, totals] of books.currencies) {
      expect([currency, totals.debits_posted, totals.debits_pending]).toEqual([
        currency,
        totals.credits_posted,
        totals.credits_pending,
      ]);
    }
    const shown = await balanceOf(t, p.account);
    expect(customerBalance(books.accounts.get(p.account)!)).toEqual({
      current: BigInt(shown.current),
      available: BigInt(shown.available),
    });
    expect(shown.available).toBeGreaterThanOrEqual(0);
    expect(shown.current).toBeLessThanOrEqual(start.current);
    // Every accepted payout and book transfer holds exactly once; every refused one holds nothing.
    const transfers = answers
      .filter((r, i) => (i % 4 === 0 || i % 4 === 3) && r.status === 201)
      .map((r) => r.body.id as string);
    for (const id of transfers) expect(pendingIds.has(id)).toBe(true);
    const refusedTransfers = answers.filter((r, i) => (i % 4 === 0 || i % 4 === 3) && r.status === 422).length;
    expect(pendingIds.size).toBeGreaterThanOrEqual(transfers.length);
    expect(transfers.length + refusedTransfers).toBe(25);
  });
});
