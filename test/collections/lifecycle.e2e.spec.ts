import { openAccount } from '../accounts/accounts-helpers';
import { readyIndividual } from '../onboarding/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import {
  balanceOf,
  CARDS,
  CARD_FEE,
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  merchant,
  publicKeyOf,
  submitPage,
  UNKNOWN_IA,
  walletAction,
} from './helpers';

const get = (t: TestApp, path: string, key: string = KEYS.sandbox) => t.http.get(path).set(bearer(key));
const authenticate = (t: TestApp, id: string, result: string, key: string = KEYS.sandbox) =>
  t.http.post(`/sandbox/intent-actions/${id}/authenticate`).set(bearer(key)).send({ result });
const cancel = (t: TestApp, id: string, body: Record<string, unknown> = { action: 'cancel' }) =>
  t.http.patch(`/payment-intents/${id}`).set(bearer(KEYS.sandbox)).send(body);
const OPERATOR = 'op_' + 'x'.repeat(40);
const noThreeDs = { return_url: undefined } as const;
const noThreeDsData = { auth_model: '3ds_disabled', browser_info: undefined } as const;

describe('payment intent and intent action lifecycles (spec state tables, decisions §2 and §7)', () => {
  let t: TestApp;
  let account: string;
  let pem: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ account } = await merchant(t));
    pem = await publicKeyOf(t);
  });
  afterAll(() => t.close());

  const confirmed = async (number: string = CARDS.approved) => {
    const intent = await createIntent(t, account);
    const action = (await confirm(t, intent.id, cardAction(encrypt(pem, card({ card_number: number })))).expect(201))
      .body;
    return { intent: intent.id, action: action.id as string };
  };

  describe('cancel (PATCH action: cancel)', () => {
    it('moves requires_action to cancelled with its reason', async () => {
      const intent = await createIntent(t, account);
      const res = await cancel(t, intent.id, { action: 'cancel', reason: 'customer left' }).expect(200);
      expect(res.body).toMatchObject({ id: intent.id, status: 'cancelled', status_reason: 'customer left' });
      expect((await get(t, `/payment-intents/${intent.id}`)).body.status).toBe('cancelled');
    });

    it('answers 409 invalid_state from processing, completed, failed and cancelled', async () => {
      const processing = await confirmed();
      const completed = await confirmed();
      await authenticate(t, completed.action, 'success').expect(200);
      const failed = await confirmed(CARDS.declined);
      await authenticate(t, failed.action, 'success').expect(200);
      const cancelled = await createIntent(t, account);
      await cancel(t, cancelled.id).expect(200);
      for (const id of [processing.intent, completed.intent, failed.intent, cancelled.id]) {
        const res = await cancel(t, id).expect(409);
        expect(res.body).toMatchObject({ status: 'error', code: 'invalid_state' });
      }
    });

    it('refuses another action or a bad reason with 400', async () => {
      const intent = await createIntent(t, account);
      expect((await cancel(t, intent.id, { action: 'confirm' }).expect(400)).body.errors[0].field).toBe('action');
      expect(
        (await cancel(t, intent.id, { action: 'cancel', reason: 'r'.repeat(101) }).expect(400)).body.errors[0].field,
      ).toBe('reason');
      expect((await cancel(t, intent.id, { action: 'cancel', reason: '' }).expect(400)).body.errors[0].field).toBe(
        'reason',
      );
    });
  });

  describe('confirm (POST /intent-actions)', () => {
    it('answers 409 for an intent not in requires_action, and a cancelled one', async () => {
      const { intent } = await confirmed();
      const res = await confirm(t, intent, cardAction(encrypt(pem, card()))).expect(409);
      expect(res.body.code).toBe('invalid_state');
      const cancelled = await createIntent(t, account);
      await cancel(t, cancelled.id).expect(200);
      await confirm(t, cancelled.id, cardAction(encrypt(pem, card()))).expect(409);
    });

    it.each([
      [CARDS.declined, 'card_declined'],
      [CARDS.insufficient, 'insufficient_funds'],
    ])('declines test card %s with %s: action and intent failed, nothing credited', async (number, reason) => {
      const before = await balanceOf(t, account);
      const { intent, action } = await confirmed(number);
      const res = await authenticate(t, action, 'success').expect(200);
      expect(res.body).toMatchObject({ status: 'failed', status_reason: reason });
      expect((await get(t, `/payment-intents/${intent}`)).body).toMatchObject({
        status: 'failed',
        status_reason: reason,
      });
      expect(await balanceOf(t, account)).toEqual(before);
    });

    it('approves any other Luhn-valid card (mastercard), 3ds_disabled: completed at once', async () => {
      const intent = await createIntent(t, account);
      const res = await confirm(
        t,
        intent.id,
        cardAction(encrypt(pem, card({ card_number: CARDS.other })), noThreeDs, noThreeDsData),
      ).expect(201);
      expect(res.body).toMatchObject({
        status: 'completed',
        requires_action: false,
        next_action: null,
        payment_type_data: { last_four_digits: '4444', card_brand: 'mastercard' },
      });
      expect((await get(t, `/payment-intents/${intent.id}`)).body.status).toBe('completed');
    });

    it('a wallet follows auth_model: 3ds_disabled completes at once with the wallet fee, 3ds_required waits for the page', async () => {
      const before = await balanceOf(t, account);
      const now = await createIntent(t, account);
      const done = (await confirm(t, now.id, walletAction()).expect(201)).body;
      expect(done).toMatchObject({
        status: 'completed',
        payment_type: 'walletpay-acq',
        applicable_fee: 250,
        payment_type_data: { last_four_digits: null, card_brand: null, payment_country: 'GB' },
      });
      expect(await balanceOf(t, account)).toEqual({
        available: before.available + 9_750,
        current: before.current + 9_750,
      });
      const later = await createIntent(t, account);
      const waiting = (
        await confirm(
          t,
          later.id,
          walletAction(
            { return_url: 'https://merchant.example/r' },
            { auth_model: '3ds_required', browser_info: { language: 'en' } },
          ),
        ).expect(201)
      ).body;
      expect(waiting).toMatchObject({ status: 'pending_user_action', requires_action: true });
    });
  });

  describe('3-D Secure by API (POST /sandbox/intent-actions/{id}/authenticate)', () => {
    it('failure fails the action (authentication_failed) and the intent', async () => {
      const { intent, action } = await confirmed();
      expect((await authenticate(t, action, 'failure').expect(200)).body).toMatchObject({
        status: 'failed',
        status_reason: 'authentication_failed',
      });
      expect((await get(t, `/payment-intents/${intent}`)).body).toMatchObject({
        status: 'failed',
        status_reason: 'authentication_failed',
      });
    });

    it('acts once: a second answer is 409 and moves nothing', async () => {
      const { action } = await confirmed();
      await authenticate(t, action, 'success').expect(200);
      const before = await balanceOf(t, account);
      expect((await authenticate(t, action, 'failure').expect(409)).body.code).toBe('authentication_not_pending');
      expect(await balanceOf(t, account)).toEqual(before);
    });

    it('refuses a bad result (400), an unknown action (404) and a live key (403)', async () => {
      const { action } = await confirmed();
      expect((await authenticate(t, action, 'maybe').expect(400)).body.errors[0].field).toBe('result');
      await authenticate(t, UNKNOWN_IA, 'success').expect(404);
      await authenticate(t, action, 'success', KEYS.live).expect(403);
    });
  });

  describe('verify (POST /intent-verifications/{id})', () => {
    it('returns a final action as is, and leaves one waiting for its customer waiting', async () => {
      const { action } = await confirmed();
      expect(
        (await t.http.post(`/intent-verifications/${action}`).set(bearer(KEYS.sandbox)).expect(200)).body,
      ).toMatchObject({ id: action, status: 'pending_user_action' });
      await authenticate(t, action, 'success').expect(200);
      const first = (await t.http.post(`/intent-verifications/${action}`).set(bearer(KEYS.sandbox)).expect(200)).body;
      expect(first).toMatchObject({ status: 'completed' });
      expect((await t.http.post(`/intent-verifications/${action}`).set(bearer(KEYS.sandbox)).expect(200)).body).toEqual(
        first,
      );
      await t.http.post(`/intent-verifications/${UNKNOWN_IA}`).set(bearer(KEYS.sandbox)).expect(404);
    });

    it('GET /intent-actions/{id} reads the action with its intent’s refunded total', async () => {
      const { action } = await confirmed();
      expect((await get(t, `/intent-actions/${action}`).expect(200)).body).toMatchObject({
        id: action,
        object: 'intent_action',
        refunded_amount: 0,
        action: 'confirm',
        category: 'collections',
      });
      await get(t, `/intent-actions/${UNKNOWN_IA}`).expect(404);
    });
  });

  describe('the 3-D Secure page (decisions §7)', () => {
    it('serves plain HTML without an API key, with no script and a strict CSP; an unknown id is 404', async () => {
      const { action } = await confirmed();
      const page = await t.http.get(`/3ds/${action}`).expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https://merchant.example; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(page.text).not.toMatch(/<script|src=|href=/i);
      expect(page.text).toContain(`action="/3ds/${action}/approve"`);
      await t.http.get(`/3ds/${UNKNOWN_IA}`).expect(404);
      await submitPage(t, UNKNOWN_IA).expect(404);
    });

    it('once expired, acts on nothing (page and API), and verification fails the action and its intent', async () => {
      const { intent, action } = await confirmed();
      // The app's clock moves past the 15-minute authentication window, and back after.
      t.clock.advance(16 * 60_000);
      try {
        expect((await authenticate(t, action, 'success').expect(409)).body.code).toBe('authentication_expired');
        const page = await submitPage(t, action).expect(409);
        expect(page.text).toContain('expired');
        const verified = await t.http.post(`/intent-verifications/${action}`).set(bearer(KEYS.sandbox)).expect(200);
        expect(verified.body).toMatchObject({ status: 'failed', status_reason: 'authentication_expired' });
      } finally {
        t.clock.advance(-16 * 60_000);
      }
      expect((await get(t, `/payment-intents/${intent}`)).body).toMatchObject({
        status: 'failed',
        status_reason: 'authentication_expired',
      });
      expect((await t.http.get(`/3ds/${action}`).expect(409)).text).toContain('expired');
    });
  });

  it('completion credits amount − applicable_fee, visible in the statement with the intent id', async () => {
    const { intent, action } = await confirmed();
    await authenticate(t, action, 'success').expect(200);
    await t.settle();
    const entries = (await get(t, `/accounts/${account}/transactions?limit=100`).expect(200)).body.data as Array<
      Record<string, unknown>
    >;
    expect(entries.find((e) => e.payment_intent_id === intent)).toMatchObject({
      type: 'credit',
      amount: 10_000 - CARD_FEE,
      fee: CARD_FEE,
    });
  });
});

describe('live mode (decisions §1, README)', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('goes through the same path and the simulated acquirer refuses it: acquirer_unavailable', async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: OPERATOR });
    const entity = await readyIndividual(t, {}, KEYS.live);
    await t.http.post('/onboarding-submissions').set(bearer(KEYS.live)).send({ entity_id: entity.id }).expect(200);
    await t.http
      .post(`/admin/entities/${entity.id}/review`)
      .set(bearer(OPERATOR))
      .send({ decision: 'approved' })
      .expect(200);
    const { id: account } = await openAccount(t, KEYS.live, { entity_id: entity.id, currency: 'USD' });
    const pem = await publicKeyOf(t, KEYS.live);
    const intent = await createIntent(t, account, {}, KEYS.live);
    const res = await confirm(t, intent.id, cardAction(encrypt(pem, card())), KEYS.live).expect(201);
    expect(res.body).toMatchObject({ status: 'failed', status_reason: 'acquirer_unavailable', requires_action: false });
    expect((await get(t, `/payment-intents/${intent.id}`, KEYS.live)).body).toMatchObject({
      status: 'failed',
      status_reason: 'acquirer_unavailable',
    });
    await get(t, `/payment-intents/${intent.id}`, KEYS.sandbox).expect(404);
    // The simulated issuer's page never acts for a live payment.
    expect((await submitPage(t, res.body.id).expect(409)).text).toContain('only available for sandbox');
  });
});
