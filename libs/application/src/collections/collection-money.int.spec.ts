import { ulid } from 'ulid';
import { accountDecider } from '@app/domain/accounts';
import {
  paymentIntentDecider,
  type ExistingPaymentIntent,
  type IntentActionRecord,
  type RequestedRefund,
} from '@app/domain/collections';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { systemClock } from '@app/platform/clock';
import { DomainException, foldStream, handleCommand } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { accountLogReader } from '../accounts/account-log-reader';
import { anotherProcess } from '../testing/another-process';
import { finishRefund } from './finish-refund/finish-refund';
import { FinishRefundCommand } from './finish-refund/finish-refund.command';
import { FinishRefundHandler } from './finish-refund/finish-refund.handler';
import { RefundPaymentIntentCommand } from './refund-payment-intent/refund-payment-intent.command';
import { RefundPaymentIntentHandler } from './refund-payment-intent/refund-payment-intent.handler';
import { settleAction } from './settle-action';
import { paymentIntentStream } from './streams';
import { openUsdAccount, storeOnDisk, TEST_CONTEXT } from '../testing/account-on-disk';

/**
 * The account state keeps no list of collections or refunds: a credit is applied once because its
 * command carries what the account's log says since the confirmation; a refund is set aside on
 * its intent first (the charge left decided there), then debited once (the log read from the
 * request's revision on) and recorded, on a real store.
 */
describe('collection money on the account, keyed by the movement (issue 19, item 4)', () => {
  let store: SqliteEventStore;
  let dispose: () => Promise<void>;
  const context = TEST_CONTEXT;
  const ACC = `acc_${ulid()}`;
  const PI = `pi_${ulid()}`;
  const IA = `ia_${ulid()}`;
  // settleAction reads the money fields of a decided action and the ids it belongs to.
  const action = {
    id: IA,
    payment_intent_id: PI,
    account_id: ACC,
    entity_id: 'ent_1',
    amount: 1_000,
    applicable_fee: 0,
    currency: 'USD',
    status: 'completed',
  } as IntentActionRecord;

  beforeEach(async () => {
    ({ store, dispose } = storeOnDisk('collection-money-'));
    await openUsdAccount(store, ACC, 5, context);
    const intent = {
      id: PI,
      currency: 'USD',
      amount: 1_000,
      reference: 'r',
      description: null,
      entity_id: 'ent_1',
      account_id: ACC,
      created: 1,
    };
    await handleCommand(
      store,
      paymentIntentStream(PI),
      paymentIntentDecider,
      { type: 'CreatePaymentIntent', intent },
      context,
      { entityId: 'ent_1' },
    );
    const { revision } = await foldStream(store, accountStream(ACC), accountDecider);
    await handleCommand(
      store,
      paymentIntentStream(PI),
      paymentIntentDecider,
      { type: 'ConfirmPaymentIntent', payment_intent_id: PI, intent_action_id: IA, now: 2, account_revision: revision },
      context,
    );
  });
  afterEach(async () => {
    await dispose();
  });

  const count = async (type: string) =>
    (await store.readStream(accountStream(ACC))).filter((e) => e.type === type).length;
  const intentState = async () =>
    (await foldStream(store, paymentIntentStream(PI), paymentIntentDecider)).state as ExistingPaymentIntent;
  const refund = (amount: number) =>
    new RefundPaymentIntentHandler(store, systemClock).execute(
      new RefundPaymentIntentCommand(context, PI, amount, null),
    );

  it('a credit retried (after a crash before the completion, and concurrently) is applied once', async () => {
    // A request that died after crediting, before completing the intent.
    const reader = accountLogReader(
      store,
      ACC,
      (await intentState()).account_revision! + 1,
      (e) => e.type === 'CollectionCredited' && e.data.payment_intent_id === PI,
    );
    const credit = async () => ({
      type: 'CreditCollection' as const,
      account_id: ACC,
      payment_intent_id: PI,
      amount: 1_000,
      fee: 0,
      currency: 'USD',
      now: 3,
      already_credited: await reader(),
    });
    await handleCommand(store, accountStream(ACC), accountDecider, credit, context);
    expect((await intentState()).status).toBe('processing');
    await Promise.all([
      settleAction(store, action, context, Date.now()),
      settleAction(store, action, context, Date.now()),
      settleAction(store, action, context, Date.now()),
    ]);
    await settleAction(store, action, context, Date.now());
    expect(await count('CollectionCredited')).toBe(1);
    expect((await intentState()).status).toBe('completed');
  });

  /** A refund set aside on the intent, as the refund request does before the account is debited. */
  const request = async (
    refund_id: string,
    amount: number,
    driver: EventStore = store,
    before?: () => Promise<unknown>,
  ) => {
    const { revision } = await foldStream(driver, accountStream(ACC), accountDecider);
    const command = async () => {
      await before?.();
      return {
        type: 'RequestRefund' as const,
        payment_intent_id: PI,
        refund_id,
        amount,
        reason: null,
        account_revision: revision,
        now: 3,
      };
    };
    const { newEvents } = await handleCommand(driver, paymentIntentStream(PI), paymentIntentDecider, command, context);
    return (newEvents[0].data as { refund: RequestedRefund }).refund;
  };

  it('a refund finished again (the request and the backstop, concurrently and later) is debited and recorded once', async () => {
    await settleAction(store, action, context, Date.now());
    const requested = await request('rfd_1', 300);
    await Promise.all([
      finishRefund(store, systemClock, requested, context),
      new FinishRefundHandler(store, systemClock).execute(new FinishRefundCommand(context, requested)),
    ]);
    await finishRefund(store, systemClock, requested, context);
    expect(await count('CollectionRefunded')).toBe(1);
    expect(await intentState()).toMatchObject({ refunded: 300, requested: {} });
  });

  it('a refund requested between another request’s fold and append sends that one round again, refused on the charge left', async () => {
    await settleAction(store, action, context, Date.now());
    let raced = false;
    // After this request folded the intent, another refund of 700 is requested and finished (another
    // driver: its own store handle, so its own per-process queue): this append conflicts, and the retry refuses.
    const race = async () => {
      if (raced) return;
      raced = true;
      await refund(700);
    };
    const late = anotherProcess(store);
    await expect(request('rfd_late', 700, late, race)).rejects.toMatchObject({
      error: { code: 'refund_exceeds_charge' },
    });
    expect(raced).toBe(true);
    expect(await count('CollectionRefunded')).toBe(1);
  });

  it('a refund the balance cannot cover is refused and frees what it set aside', async () => {
    await settleAction(store, action, context, Date.now());
    await handleCommand(
      store,
      accountStream(ACC),
      accountDecider,
      { type: 'PlaceHold', account_id: ACC, hold_id: 'trf_x', amount: 900, fee: 0, origin_done: false, now: 4 },
      context,
    );
    await expect(refund(500)).rejects.toMatchObject({ error: { code: 'insufficient_funds' } });
    expect(await intentState()).toMatchObject({ refunded: 0, requested: {} });
    expect(await count('CollectionRefunded')).toBe(0);
    expect(await refund(100)).toMatchObject({ amount: 100, status: 'succeeded' });
  });

  it('a refund whose request died after its debit is recorded by the backstop, reading the account only since the request', async () => {
    await settleAction(store, action, context, Date.now());
    for (let i = 0; i < 40; i++) {
      await handleCommand(
        store,
        accountStream(ACC),
        accountDecider,
        { type: 'FundAccount', account_id: ACC, transaction_id: `txn_${i}`, amount: 1, currency: 'USD', now: 4 },
        context,
      );
    }
    const requested = await request('rfd_2', 250);
    // The request's debit, then nothing more: it died before recording.
    const debit = {
      type: 'RefundCollection' as const,
      account_id: ACC,
      payment_intent_id: PI,
      refund_id: 'rfd_2',
      amount: 250,
      currency: 'USD',
      reason: null,
      now: 5,
      already_refunded: false,
    };
    await handleCommand(store, accountStream(ACC), accountDecider, debit, context);
    let read = 0;
    const counting = new Proxy(store, {
      get: (target, key) =>
        key === 'readStream'
          ? async (streamId: string, options?: { fromRevision?: number }) => {
              const events = await store.readStream(streamId, options);
              if (streamId === accountStream(ACC)) read += events.length;
              return events;
            }
          : (Reflect.get(target, key) as unknown),
    }) as EventStore;
    await foldStream(counting, accountStream(ACC), accountDecider); // a running process's warm cache
    read = 0;
    await new FinishRefundHandler(counting, systemClock).execute(new FinishRefundCommand(context, requested));
    expect(read).toBeLessThanOrEqual(2);
    expect(await count('CollectionRefunded')).toBe(1);
    expect(await intentState()).toMatchObject({ refunded: 250, requested: {} });
  });

  it('concurrent refunds of one intent never pass the charge together', async () => {
    await settleAction(store, action, context, Date.now());
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => refund(400)));
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => ((r as PromiseRejectedResult).reason as DomainException).error.code);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(refused).toEqual(Array(4).fill('refund_exceeds_charge'));
    const debited = (await store.readStream(accountStream(ACC)))
      .filter((e) => e.type === 'CollectionRefunded')
      .reduce((sum, e) => sum + (e.data as { amount: number }).amount, 0);
    expect(debited).toBe(800);
    expect((await intentState()).refunded).toBe(800);
  });
});
