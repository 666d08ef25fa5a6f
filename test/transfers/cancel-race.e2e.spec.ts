import { CommandBus } from '@nestjs/cqrs';
import { reactionContext } from '@app/application/command-handling';
import { ApplyTransferMoneyCommand, transferMoneyManager, transferRailsManager } from '@app/application/transfers';
import { accountStream } from '@app/application/accounts/streams';
import { transferStream } from '@app/application/transfers/streams';
import type { TransferEvent } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { balanced, cancel, historyTypes, ledgerAccount, ledgerOf } from './cancel-helpers';
import { BANK_USD, advance, balanceOf, paymentDetail, payer, post, transferBody } from './helpers';

const TOKEN = `op_${'r'.repeat(40)}`;
const RACES = 50;

/**
 * Decisions §14: a cancel and the rail's move to processing (the sandbox endpoint, or the
 * operator's advance) sent at once, 50 times. Both are one append on the transfer's stream with the
 * revision read, so exactly one lands; the loser answers 409 and writes nothing, and the hold is
 * released at most once, however often its release is asked for.
 */
describe('a cancel racing the move to processing (decisions §14)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  const store = () => t.app.get<EventStore>(EVENT_STORE);
  const releasesOf = async (accountId: string, holdId: string) =>
    (await store().readStream(accountStream(accountId))).filter(
      (e) => e.type === 'HoldReleased' && e.data.hold_id === holdId,
    ).length;

  it(`has exactly one winner each of ${RACES} times, money conserved and the ledger balanced after each`, async () => {
    const p = await payer(t, 'USD', 10_000_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const start = await balanceOf(t, p.account);
    let held = 0;
    const winners = { cancel: 0, rail: 0 };

    for (let i = 0; i < RACES; i++) {
      const tr = (await post(t, transferBody(p.account, bank, { amount: 1_000 + i })).expect(201)).body as {
        id: string;
        amount: number;
        fee: number;
      };
      // Half the time the sandbox endpoint, half the operator: both are the rail's move.
      const rail = () =>
        i % 2 === 0
          ? advance(t, tr.id, { to: 'processing' })
          : t.http
              .post(`/admin/transfers/${tr.id}/advance`)
              .set({ Authorization: `Bearer ${TOKEN}` })
              .send({ to: 'processing' });
      // Which request starts first alternates too, so neither is favoured by the order it is sent in.
      const [c, r] =
        i % 4 < 2
          ? await Promise.all([cancel(t, tr.id, { entity_id: p.entity }), rail()])
          : (await Promise.all([rail(), cancel(t, tr.id, { entity_id: p.entity })])).reverse();

      expect([c.status, r.status].sort()).toEqual([200, 409]);
      const cancelWon = c.status === 200;
      winners[cancelWon ? 'cancel' : 'rail']++;
      expect((cancelWon ? c : r).body.status).toBe(cancelWon ? 'cancelled' : 'processing');
      expect((cancelWon ? r : c).body.code).toBe(cancelWon ? 'invalid_transition' : 'invalid_state');
      // The loser left no trace on the transfer's stream, and the hold was released once or not at all.
      expect(await historyTypes(t, tr.id)).toEqual([
        'TransferCreated',
        cancelWon ? 'TransferCancelled' : 'TransferProcessing',
      ]);
      expect(await releasesOf(p.account, tr.id)).toBe(cancelWon ? 1 : 0);

      if (!cancelWon) held += tr.amount + tr.fee;
      expect(await balanceOf(t, p.account)).toEqual({ available: start.available - held, current: start.current });
      const ledger = await ledgerOf(t);
      expect(balanced(ledger)).toBe(true);
      const book = ledgerAccount(ledger, p.account);
      expect([book.credits_posted - book.debits_posted, book.debits_pending]).toEqual([start.current, held]);
    }
    // Not a check of speed: a run where one side always won would not have raced at all.
    console.log(`cancel won ${winners.cancel}, the rail ${winners.rail} of ${RACES}`);
  });

  it('releases a cancelled hold once however often the money step is asked again (the request, the transfer-money backstop)', async () => {
    const p = await payer(t, 'USD', 100_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const start = await balanceOf(t, p.account);
    const tr = (await post(t, transferBody(p.account, bank, { amount: 5_000 })).expect(201)).body as { id: string };
    await cancel(t, tr.id, { entity_id: p.entity }).expect(200);

    const recorded = (await store().readStream(transferStream(tr.id))).find((e) => e.type === 'TransferCancelled')!;
    const commands = t.app.get(CommandBus);
    await Promise.all(
      [1, 2, 3].map(() =>
        commands.execute(
          new ApplyTransferMoneyCommand(reactionContext(recorded, 'test'), recorded as unknown as TransferEvent),
        ),
      ),
    );
    // The backstop sees the hold closed and does nothing, without waiting for its grace period.
    await transferMoneyManager(store(), commands, 60_000).handle(recorded, new AbortController().signal);
    expect(await releasesOf(p.account, tr.id)).toBe(1);
    expect(await balanceOf(t, p.account)).toEqual(start);
    expect(balanced(await ledgerOf(t))).toBe(true);
    expect(
      (await t.http.get(`/transfers/${tr.id}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(200)).body.status,
    ).toBe('cancelled');
  });

  it("is left alone by the sandbox network (SANDBOX_AUTO_ADVANCE's transfer-rails manager): its move to processing is refused and dropped", async () => {
    const p = await payer(t, 'USD', 100_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const start = await balanceOf(t, p.account);
    const tr = (await post(t, transferBody(p.account, bank, { amount: 5_000 })).expect(201)).body as { id: string };
    const cancelled = (await cancel(t, tr.id, { entity_id: p.entity }).expect(200)).body;

    // The manager's own handling of the transfer's creation, its step due at once (no timer raced).
    const created = (await store().readStream(transferStream(tr.id)))[0];
    await transferRailsManager(t.app.get(CommandBus), 0).handle(created, new AbortController().signal);
    expect(await historyTypes(t, tr.id)).toEqual(['TransferCreated', 'TransferCancelled']);
    expect(
      (await t.http.get(`/transfers/${tr.id}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(200)).body,
    ).toEqual(cancelled);
    expect(await balanceOf(t, p.account)).toEqual(start);
  });
});
