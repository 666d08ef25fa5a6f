import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import {
  balanceOf,
  CARD_FEE,
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  IA_ID,
  intentBody,
  merchant,
  PI_ID,
  publicKeyOf,
  UNKNOWN_PI,
} from './helpers';

describe('payment intents: create, confirm with a card under the key’s RSA-OAEP key, 3-D Secure by API', () => {
  let t: TestApp;
  let account: string;
  let pem: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ account } = await merchant(t));
    pem = await publicKeyOf(t);
  });
  afterAll(() => t.close());

  it('creates an intent in requires_action (201), readable by id at once', async () => {
    const res = await t.http
      .post('/payment-intents')
      .set(bearer(KEYS.sandbox))
      .send(intentBody(account, { reference: 'order-1' }))
      .expect(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(PI_ID),
      object: 'payment_intent',
      status: 'requires_action',
      status_reason: null,
      amount: 10_000,
      currency: 'USD',
      reference: 'order-1',
      account_id: account,
    });
    expect(res.body.intent_action).toBeUndefined();
    expect((await t.http.get(`/payment-intents/${res.body.id}`).set(bearer(KEYS.sandbox)).expect(200)).body).toEqual(
      res.body,
    );
  });

  it('confirms with 3-D Secure: pending_user_action with the redirect, then authenticate → completed, credit amount − fee', async () => {
    const intent = await createIntent(t, account);
    const before = await balanceOf(t, account);
    const res = await confirm(t, intent.id, cardAction(encrypt(pem, card()))).expect(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(IA_ID),
      status: 'pending_user_action',
      requires_action: true,
      applicable_fee: CARD_FEE,
      charge_amount: 10_000,
      refunded_amount: 0,
      payment_type_data: {
        auth_model: '3ds_required',
        payment_country: 'GB',
        last_four_digits: '4242',
        card_brand: 'visa',
        card_type: 'credit',
      },
    });
    expect(res.body.next_action).toEqual({
      type: 'redirect_to_url',
      url: expect.stringMatching(new RegExp(`/3ds/${res.body.id}$`)),
    });
    expect((await t.http.get(`/payment-intents/${intent.id}`).set(bearer(KEYS.sandbox))).body.status).toBe(
      'processing',
    );
    const done = await t.http
      .post(`/sandbox/intent-actions/${res.body.id}/authenticate`)
      .set(bearer(KEYS.sandbox))
      .send({ result: 'success' })
      .expect(200);
    expect(done.body).toMatchObject({ status: 'completed', requires_action: false, next_action: null });
    expect((await t.http.get(`/payment-intents/${intent.id}`).set(bearer(KEYS.sandbox))).body.status).toBe('completed');
    expect(await balanceOf(t, account)).toEqual({
      available: before.available + 10_000 - CARD_FEE,
      current: before.current + 10_000 - CARD_FEE,
    });
  });

  it('creates and confirms in one call with 3ds_disabled: completed, intent_action embedded', async () => {
    const action = cardAction(
      encrypt(pem, card()),
      { return_url: undefined },
      { auth_model: '3ds_disabled', browser_info: undefined },
    );
    const res = await t.http
      .post('/payment-intents')
      .set(bearer(KEYS.sandbox))
      .send(intentBody(account, { intent_action: action }))
      .expect(201);
    expect(res.body).toMatchObject({
      status: 'completed',
      intent_action: { status: 'completed', requires_action: false, payment_intent_id: res.body.id },
    });
  });

  it('answers 404 for an unknown intent', async () => {
    await t.http.get(`/payment-intents/${UNKNOWN_PI}`).set(bearer(KEYS.sandbox)).expect(404);
  });
});
