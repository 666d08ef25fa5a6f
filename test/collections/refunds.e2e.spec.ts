import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { fund } from '../transfers/helpers';
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

const noThreeDs = { return_url: undefined } as const;
const noThreeDsData = { auth_model: '3ds_disabled', browser_info: undefined } as const;

describe('refunds (decisions §7) and payment_intent.* webhooks (spec Events)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let account: string;
  let entity: string;
  let pem: string;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startWebhookApp();
    ({ account, entity } = await merchant(t));
    // Refunds are paid from the balance, which holds collections net of their fees.
    await fund(t, account, 100_000, 'USD');
    pem = await publicKeyOf(t);
    await webhookTo(t, receiver, '/intents', {
      entity_id: entity,
      enabled_events: { payment_intent: ['completed', 'failed', 'cancelled', 'refunded'] },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    restoreEnv();
  });

  const completed = async (amount = 10_000) => {
    const intent = await createIntent(t, account, { amount });
    await confirm(t, intent.id, cardAction(encrypt(pem, card()), noThreeDs, noThreeDsData)).expect(201);
    return intent.id;
  };
  const refund = (id: string, body: Record<string, unknown> = {}) =>
    t.http.post(`/payment-intents/${id}/refunds`).set(bearer(KEYS.sandbox)).send(body);

  it('refunds partly then the rest: 201 refunds, the account debited, refunded_amount rises, the intent stays completed', async () => {
    const id = await completed();
    const before = await balanceOf(t, account);
    const first = await refund(id, { amount: 4_000, reason: 'damaged' }).expect(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^rfd_/),
      object: 'refund',
      payment_intent_id: id,
      amount: 4_000,
      currency: 'USD',
      reason: 'damaged',
      status: 'succeeded',
      created: expect.any(Number),
    });
    const rest = await refund(id).expect(201);
    expect(rest.body.amount).toBe(6_000);
    expect(await balanceOf(t, account)).toEqual({
      available: before.available - 10_000,
      current: before.current - 10_000,
    });
    const intent = (await t.http.get(`/payment-intents/${id}`).set(bearer(KEYS.sandbox))).body;
    expect(intent.status).toBe('completed');
    expect(
      (await t.http.get(`/intent-actions/${intent.intent_action_id}`).set(bearer(KEYS.sandbox))).body.refunded_amount,
    ).toBe(10_000);
    const list = (await t.http.get(`/payment-intents/${id}/refunds`).set(bearer(KEYS.sandbox)).expect(200)).body;
    expect(list.data.map((r: { id: string }) => r.id)).toEqual([rest.body.id, first.body.id]);
    expect(list.meta.pagination).toEqual({ has_more: false, next_cursor: null });
    await t.settle();
    const [action] = (await t.http.get('/intent-actions').query({ payment_intent_id: id }).set(bearer(KEYS.sandbox)))
      .body.data;
    expect(action.refunded_amount).toBe(10_000);
    const statement = (await t.http.get(`/accounts/${account}/transactions?limit=100`).set(bearer(KEYS.sandbox))).body
      .data as Array<Record<string, unknown>>;
    expect(statement.filter((e) => e.payment_intent_id === id).map((e) => [e.type, e.amount])).toEqual([
      ['debit', 6_000],
      ['debit', 4_000],
      ['credit', 10_000 - CARD_FEE],
    ]);
  });

  it('never refunds more than charged: 422 refund_exceeds_charge, also with nothing left', async () => {
    const id = await completed();
    expect((await refund(id, { amount: 10_001 }).expect(422)).body.code).toBe('refund_exceeds_charge');
    await refund(id, { amount: 10_000 }).expect(201);
    expect((await refund(id).expect(422)).body.code).toBe('refund_exceeds_charge');
    expect((await refund(id, { amount: 1 }).expect(422)).body.code).toBe('refund_exceeds_charge');
  });

  it('refunds only a completed intent (409 invalid_state), and not beyond the available balance (422 insufficient_funds)', async () => {
    const open = await createIntent(t, account);
    expect((await refund(open.id).expect(409)).body.code).toBe('invalid_state');
    const other = await merchant(t);
    const intent = await createIntent(t, other.account, { amount: 10_000 });
    await confirm(t, intent.id, cardAction(encrypt(pem, card()), noThreeDs, noThreeDsData)).expect(201);
    // The fee stays with the platform, so the account holds less than was charged.
    expect((await refund(intent.id).expect(422)).body.code).toBe('insufficient_funds');
    await refund(intent.id, { amount: 10_000 - CARD_FEE }).expect(201);
  });

  it('refuses a bad amount or reason with 400', async () => {
    const id = await completed();
    expect((await refund(id, { amount: 0 }).expect(400)).body.errors[0].field).toBe('amount');
    expect((await refund(id, { reason: '' }).expect(400)).body.errors[0].field).toBe('reason');
    expect((await refund(id, { reason: 'r'.repeat(101) }).expect(400)).body.errors[0].field).toBe('reason');
  });

  it('delivers payment_intent.completed, .failed, .cancelled with the intent and .refunded with the refund', async () => {
    const done = await completed();
    const refunded = (await refund(done, { amount: 100 }).expect(201)).body;
    const declined = await createIntent(t, account);
    await confirm(
      t,
      declined.id,
      cardAction(encrypt(pem, card({ card_number: '4000000000000002' })), noThreeDs, noThreeDsData),
    ).expect(201);
    const cancelled = await createIntent(t, account);
    await t.http
      .patch(`/payment-intents/${cancelled.id}`)
      .set(bearer(KEYS.sandbox))
      .send({ action: 'cancel' })
      .expect(200);
    const want = (event: string, id: string) => (r: (typeof receiver.received)[number]) =>
      r.payload.event === event && r.payload.data.id === id;
    const seen = await eventually(
      () => receiver.received,
      (all) =>
        all.some(want('payment_intent.cancelled', cancelled.id)) &&
        all.some(want('payment_intent.refunded', refunded.id)),
      20_000,
    );
    expect(seen.find(want('payment_intent.completed', done))?.payload.data).toMatchObject({
      object: 'payment_intent',
      status: 'completed',
      amount: 10_000,
    });
    expect(seen.find(want('payment_intent.failed', declined.id))?.payload.data).toMatchObject({
      status: 'failed',
      status_reason: 'card_declined',
    });
    expect(seen.find(want('payment_intent.cancelled', cancelled.id))?.payload.data).toMatchObject({
      status: 'cancelled',
    });
    expect(seen.find(want('payment_intent.refunded', refunded.id))?.payload.data).toEqual(refunded);
    expect(receiver.rejected).toEqual([]);
  });
});
