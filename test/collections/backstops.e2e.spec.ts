import { handleCommand, systemActor, type CommandContext } from '@app/application/command-handling';
import { REFUND_GRACE_MS } from '@app/application/collections/collections.process-managers';
import { accountDecider } from '@app/domain/accounts';
import { intentActionDecider, paymentIntentDecider } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { eventually } from '../webhooks/webhooks-helpers';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { startCollectionsApp } from './acquirer-app';
import {
  balanceOf,
  CARD_FEE,
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  merchant,
  publicKeyOf,
} from './helpers';

/**
 * A request that died after its first append: the process managers (acquirer, settlement, refunds)
 * finish what it started, from the log alone. The first append is made here directly, as the dead
 * request would have.
 */
describe('collections process managers as the backstop', () => {
  let t: TestApp;
  let store: EventStore;
  let account: string;
  let pem: string;
  let context: CommandContext;
  /** The acquirer backstop acts this long after the event; the test moves the app's clock past it. */
  const DEADLINE_MS = 1_000;

  beforeAll(async () => {
    t = await startCollectionsApp({ deadlineMs: DEADLINE_MS });
    store = t.app.get<EventStore>(EVENT_STORE);
    ({ account } = await merchant(t));
    pem = await publicKeyOf(t);
    const organization = String((await store.readStream(`account-${account}`))[0].metadata.organization_id);
    context = {
      actor: systemActor(organization, 'dead-request', 'sandbox'),
      correlationId: 'dead',
      causationId: 'dead',
    };
  });
  afterAll(() => t.close());

  const intentOf = async (id: string) =>
    (await t.http.get(`/payment-intents/${id}`).set(bearer(KEYS.sandbox)).expect(200)).body;

  it('an authentication recorded by a request that died is authorized, credited and completed', async () => {
    const before = await balanceOf(t, account);
    const intent = await createIntent(t, account);
    const action = (await confirm(t, intent.id, cardAction(encrypt(pem, card()))).expect(201)).body;
    await handleCommand(
      store,
      `intent-action-${action.id}`,
      intentActionDecider,
      { type: 'AuthenticateIntentAction', intent_action_id: action.id, result: 'success', now: t.clock.now() },
      context,
    );
    // The backstop sleeps on the app's clock until the deadline after the event: move it there.
    t.clock.advance(DEADLINE_MS);
    const after = await eventually(
      () => intentOf(intent.id),
      (i) => i.status === 'completed',
    );
    expect(after.status).toBe('completed');
    expect(await balanceOf(t, account)).toEqual({
      available: before.available + 10_000 - CARD_FEE,
      current: before.current + 10_000 - CARD_FEE,
    });
  });

  /** A refund set aside on its intent, as the refund request does first (the account read at its revision). */
  const setAside = async (intentId: string, refundId: string, amount: number) => {
    const account_revision = (await store.readStream(`account-${account}`)).length - 1;
    const request = {
      type: 'RequestRefund' as const,
      payment_intent_id: intentId,
      refund_id: refundId,
      amount,
      reason: null,
      account_revision,
      now: t.clock.now(),
    };
    await handleCommand(store, `payment-intent-${intentId}`, paymentIntentDecider, request, context);
  };
  const refundsOf = (intentId: string) =>
    eventually(
      async () =>
        (await t.http.get(`/payment-intents/${intentId}/refunds`).set(bearer(KEYS.sandbox)).expect(200)).body
          .data as Array<{ id: string; amount: number }>,
      (data) => data.length > 0,
    );

  it('a refund debited by a request that died is recorded on its intent', async () => {
    const intent = await createIntent(t, account, { amount: 5_000 });
    const action = (
      await confirm(
        t,
        intent.id,
        cardAction(
          encrypt(pem, card()),
          { return_url: undefined },
          { auth_model: '3ds_disabled', browser_info: undefined },
        ),
      ).expect(201)
    ).body;
    const refund = {
      type: 'RefundCollection' as const,
      account_id: account,
      payment_intent_id: intent.id,
      refund_id: 'rfd_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      amount: 1_000,
      currency: 'USD',
      reason: null,
      now: t.clock.now(),
      already_refunded: false,
    };
    await setAside(intent.id, refund.refund_id, refund.amount);
    await handleCommand(store, `account-${account}`, accountDecider, refund, context);
    expect(await refundsOf(intent.id)).toMatchObject([{ id: refund.refund_id, amount: 1_000 }]);
    expect((await t.http.get(`/intent-actions/${action.id}`).set(bearer(KEYS.sandbox))).body.refunded_amount).toBe(
      1_000,
    );
  });

  it('a refund set aside by a request that died before its debit is debited and recorded once its grace has passed', async () => {
    const intent = await createIntent(t, account, { amount: 5_000 });
    await confirm(
      t,
      intent.id,
      cardAction(
        encrypt(pem, card()),
        { return_url: undefined },
        { auth_model: '3ds_disabled', browser_info: undefined },
      ),
    ).expect(201);
    await eventually(
      () => intentOf(intent.id),
      (i) => i.status === 'completed',
    );
    const credited = await balanceOf(t, account);
    await setAside(intent.id, 'rfd_01ARZ3NDEKTSV4RRFFQ69G5FAW', 700);
    // Its grace passes as the app's clock reads, not in five seconds of waiting.
    t.clock.advance(REFUND_GRACE_MS);
    expect(await refundsOf(intent.id)).toMatchObject([{ id: 'rfd_01ARZ3NDEKTSV4RRFFQ69G5FAW', amount: 700 }]);
    expect(await balanceOf(t, account)).toEqual({
      available: credited.available - 700,
      current: credited.current - 700,
    });
  });

  it('racing creations with one reference: one 201, the others 409; racing confirmations: one wins, the losers 409 and fail', async () => {
    const body = { currency: 'USD', amount: 700, account_id: account, reference: 'race-1' };
    const created = await Promise.all(
      [1, 2, 3].map(() => t.http.post('/payment-intents').set(bearer(KEYS.sandbox)).send(body)),
    );
    expect(created.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const id = created.find((r) => r.status === 201)!.body.id as string;
    const confirms = await Promise.all([1, 2, 3].map(() => confirm(t, id, cardAction(encrypt(pem, card())))));
    expect(confirms.filter((r) => r.status === 201)).toHaveLength(1);
    expect(confirms.filter((r) => r.status === 409)).toHaveLength(2);
    const winner = confirms.find((r) => r.status === 201)!.body.id;
    expect((await intentOf(id)).intent_action_id).toBe(winner);
    await t.settle();
    const actions = (await t.http.get('/intent-actions').query({ payment_intent_id: id }).set(bearer(KEYS.sandbox)))
      .body.data as Array<{ id: string; status: string; status_reason: string | null }>;
    for (const a of actions.filter((x) => x.id !== winner))
      expect(a).toMatchObject({ status: 'failed', status_reason: 'intent_not_confirmable' });
  });
});
