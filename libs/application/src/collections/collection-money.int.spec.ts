import { ulid } from 'ulid';
import { accountDecider } from '@app/domain/accounts';
import { paymentIntentDecider, type ExistingPaymentIntent, type IntentActionRecord } from '@app/domain/collections';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { DomainException, foldStream, handleCommand } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { collectionLogReader } from './collection-log-reader';
import { RefundPaymentIntentCommand } from './refund-payment-intent/refund-payment-intent.command';
import { RefundPaymentIntentHandler } from './refund-payment-intent/refund-payment-intent.handler';
import { settleAction } from './settle-action';
import { paymentIntentStream } from './streams';
import { openUsdAccount, storeOnDisk, TEST_CONTEXT } from '../testing/account-on-disk';

/**
 * The account state keeps no list of collections or refunds: a credit and a refund are applied once
 * because the command carries what the account's log says, read after the fold, on a real store.
 */
describe('collection money on the account, keyed by the movement (issue 19, item 4)', () => {
  let store: SqliteEventStore;
  let dispose: () => Promise<void>;
  const context = TEST_CONTEXT;
  const ACC = `acc_${ulid()}`;
  const PI = `pi_${ulid()}`;
  const IA = `ia_${ulid()}`;
  // settleAction reads the money fields of a decided action and the ids it belongs to.
  const action = { id: IA, payment_intent_id: PI, account_id: ACC, entity_id: 'ent_1', amount: 1_000, applicable_fee: 0, currency: 'USD', status: 'completed' } as IntentActionRecord;

  beforeEach(async () => {
    ({ store, dispose } = storeOnDisk('collection-money-'));
    await openUsdAccount(store, ACC, 5, context);
    const intent = { id: PI, currency: 'USD', amount: 1_000, reference: 'r', description: null, entity_id: 'ent_1', account_id: ACC, created: 1 };
    await handleCommand(store, paymentIntentStream(PI), paymentIntentDecider, { type: 'CreatePaymentIntent', intent }, context, { entityId: 'ent_1' });
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

  const count = async (type: string) => (await store.readStream(accountStream(ACC))).filter((e) => e.type === type).length;
  const intentState = async () => (await foldStream(store, paymentIntentStream(PI), paymentIntentDecider)).state as ExistingPaymentIntent;
  const refund = (amount: number) => new RefundPaymentIntentHandler(store).execute(new RefundPaymentIntentCommand(context, PI, amount, null));

  it('a credit retried (after a crash before the completion, and concurrently) is applied once', async () => {
    // A request that died after crediting, before completing the intent.
    const reader = collectionLogReader(store, ACC, PI, (await intentState()).account_revision);
    const credit = async () => ({
      type: 'CreditCollection' as const,
      account_id: ACC,
      payment_intent_id: PI,
      amount: 1_000,
      fee: 0,
      currency: 'USD',
      now: 3,
      already_credited: (await reader()).charged !== null,
    });
    await handleCommand(store, accountStream(ACC), accountDecider, credit, context);
    expect((await intentState()).status).toBe('processing');
    await Promise.all([settleAction(store, action, context), settleAction(store, action, context), settleAction(store, action, context)]);
    await settleAction(store, action, context);
    expect(await count('CollectionCredited')).toBe(1);
    expect((await intentState()).status).toBe('completed');
  });

  /** A refund's debit as the refund handler builds it: the collection read from the log per attempt. */
  const debit = async (refund_id: string, amount: number, before?: () => Promise<unknown>, driver: EventStore = store) => {
    const reader = collectionLogReader(driver, ACC, PI, (await intentState()).account_revision);
    const command = async () => {
      const collection = await reader();
      await before?.();
      return { type: 'RefundCollection' as const, account_id: ACC, payment_intent_id: PI, refund_id, amount, currency: 'USD', reason: null, now: 3, collection };
    };
    return handleCommand(driver, accountStream(ACC), accountDecider, command, context);
  };

  it('a refund retried with its id is debited once', async () => {
    await settleAction(store, action, context);
    for (let i = 0; i < 3; i++) await debit('rfd_1', 300);
    expect(await count('CollectionRefunded')).toBe(1);
  });

  it("a refund landing between another refund's fold and append sends that one round again, refused on the charge left", async () => {
    await settleAction(store, action, context);
    let raced = false;
    // After this attempt folded and read the log, another refund of 700 lands (another driver: its
    // own store handle, so its own per-process queue): this append conflicts, and the retry reads on.
    const race = async () => {
      if (raced) return;
      raced = true;
      await refund(700);
    };
    const late = new Proxy(store, {}) as EventStore;
    await expect(debit('rfd_late', 700, race, late)).rejects.toMatchObject({ error: { code: 'refund_exceeds_charge' } });
    expect(raced).toBe(true);
    expect(await count('CollectionRefunded')).toBe(1);
  });

  it('concurrent refunds of one intent never pass the charge together', async () => {
    await settleAction(store, action, context);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => refund(400)));
    const refused = results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as DomainException).error.code);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(refused).toEqual(Array(4).fill('refund_exceeds_charge'));
    const debited = (await store.readStream(accountStream(ACC))).filter((e) => e.type === 'CollectionRefunded').reduce((sum, e) => sum + (e.data as { amount: number }).amount, 0);
    expect(debited).toBe(800);
    expect((await intentState()).refunded).toBe(800);
  });
});
