import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { account, authorize, balance, details, disposableBody, holder, virtualCard } from './helpers';

describe('sandbox authorizations: hold, capture, reverse, balance, disposable, fraud, FX', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const capture = (id: string, body: object = {}, key: string = KEYS.sandbox) =>
    t.http.post(`/sandbox/card-transactions/${id}/capture`).set(bearer(key)).send(body);
  const reverse = (id: string, key: string = KEYS.sandbox) =>
    t.http.post(`/sandbox/card-transactions/${id}/reverse`).set(bearer(key)).send({});

  it('captures by default: successful, the account debited', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    const res = await authorize(t, card.id, { amount: 2_500 }).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'successful',
      amount: 2_500,
      currency: 'USD',
      account_id: h.account,
      card_id: card.id,
      type: 'debit',
      payment_type: 'card',
      fx: null,
      applicable_fee: 0,
    });
    expect(await balance(t, h.account)).toEqual({ available: 7_500, current: 7_500 });
  });

  it('hold → capture (partial): pending holds available, capture debits the captured amount and releases the rest', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    const held = (await authorize(t, card.id, { amount: 4_000, capture: false }).expect(201)).body.data;
    expect(held).toMatchObject({ status: 'pending', amount: 4_000 });
    expect(await balance(t, h.account)).toEqual({ available: 6_000, current: 10_000 });
    expect((await details(t, card.id)).body.data).toMatchObject({ amount_hold: 4_000, amount_used: 0 });
    expect((await capture(held.id, { amount: 4_001 }).expect(422)).body.code).toBe('amount_exceeds_hold');
    const captured = (await capture(held.id, { amount: 3_000 }).expect(200)).body.data;
    expect(captured).toMatchObject({ id: held.id, status: 'successful', amount: 3_000 });
    expect(await balance(t, h.account)).toEqual({ available: 7_000, current: 7_000 });
    expect((await details(t, card.id)).body.data).toMatchObject({ amount_hold: 0, amount_used: 3_000 });
    // The statement reads hold 4_000, release 4_000, hold 3_000, debit 3_000.
    const statement = (await t.http.get(`/accounts/${h.account}/transactions`).set(bearer(KEYS.sandbox)).expect(200))
      .body.data as Array<{ type: string; amount: number }>;
    expect(statement.map((e) => [e.type, e.amount]).reverse()).toEqual([
      ['credit', 10_000],
      ['hold', 4_000],
      ['release', 4_000],
      ['hold', 3_000],
      ['debit', 3_000],
    ]);
    expect((await capture(held.id).expect(409)).body.code).toBe('card_transaction_not_pending');
    await reverse(held.id).expect(409);
  });

  it('hold → reverse: the hold is released, nothing debited; a second reverse or a capture answers 409', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    const held = (await authorize(t, card.id, { amount: 4_000, capture: false }).expect(201)).body.data;
    const reversed = (await reverse(held.id).expect(200)).body.data;
    expect(reversed).toMatchObject({ id: held.id, status: 'reversed' });
    expect(await balance(t, h.account)).toEqual({ available: 10_000, current: 10_000 });
    expect((await details(t, card.id)).body.data).toMatchObject({ amount_hold: 0, amount_used: 0 });
    await reverse(held.id).expect(409);
    await capture(held.id).expect(409);
    await capture('ctxn_01ARZ3NDEKTSV4RRFFQ69G5FAV').expect(404);
    await reverse(held.id, KEYS.other).expect(404);
    await reverse(held.id, KEYS.live).expect(403);
  });

  it('declines insufficient_funds on the available balance, holds included, and lets go of the usage it held', async () => {
    const h = await holder(t, 'USD', 5_000);
    const card = await virtualCard(t, h.account, { individual_controls: { daily_transaction_count: 2 } });
    await authorize(t, card.id, { amount: 3_000, capture: false }).expect(201);
    const res = await authorize(t, card.id, { amount: 2_001 }).expect(201);
    expect(res.body.data).toMatchObject({ status: 'declined', status_reason: 'insufficient_funds' });
    // The declined one no longer counts: a second transaction of the day still fits the count.
    expect((await details(t, card.id)).body.data).toMatchObject({
      daily_transaction_count_used: 0,
      daily_transaction_count_hold: 1,
    });
    expect((await authorize(t, card.id, { amount: 2_000 }).expect(201)).body.data.status).toBe('successful');
    expect(await balance(t, h.account)).toEqual({ available: 0, current: 3_000 });
  });

  it('a disposable card blocks itself after its first success, also when that success is a later capture', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = (
      await t.http.post('/disposable-cards').set(bearer(KEYS.sandbox)).send(disposableBody(h.account)).expect(201)
    ).body.data;
    // A decline does not use it up.
    expect((await authorize(t, card.id, { amount: 200_000 }).expect(201)).body.data.status_reason).toBe(
      'limit_exceeded',
    );
    expect((await authorize(t, card.id, { amount: 1_000 }).expect(201)).body.data.status).toBe('successful');
    expect((await details(t, card.id)).body.data.status).toBe('blocked');
    expect((await authorize(t, card.id, { amount: 1 }).expect(201)).body.data).toMatchObject({
      status: 'declined',
      status_reason: 'card_blocked',
    });
    expect(
      (await t.http.patch(`/card-details/${card.id}/unfreeze`).set(bearer(KEYS.sandbox)).expect(409)).body.code,
    ).toBe('card_used');

    const later = (
      await t.http.post('/disposable-cards').set(bearer(KEYS.sandbox)).send(disposableBody(h.account)).expect(201)
    ).body.data;
    const held = (await authorize(t, later.id, { amount: 500, capture: false }).expect(201)).body.data;
    // One shot: while it is pending, nothing else passes.
    expect((await authorize(t, later.id, { amount: 1 }).expect(201)).body.data.status_reason).toBe('card_blocked');
    expect((await details(t, later.id)).body.data.status).toBe('active');
    await capture(held.id).expect(200);
    expect((await details(t, later.id)).body.data.status).toBe('blocked');
  });

  it('fraud declines every authorization card_blocked, while holds placed before can still be captured or reversed', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    const a = (await authorize(t, card.id, { amount: 1_000, capture: false }).expect(201)).body.data;
    const b = (await authorize(t, card.id, { amount: 2_000, capture: false }).expect(201)).body.data;
    await t.http.post(`/sandbox/cards/${card.id}/fraud`).set(bearer(KEYS.sandbox)).expect(200);
    expect((await authorize(t, card.id, { amount: 1 }).expect(201)).body.data.status_reason).toBe('card_blocked');
    await capture(a.id).expect(200);
    await reverse(b.id).expect(200);
    expect(await balance(t, h.account)).toEqual({ available: 9_000, current: 9_000 });
  });

  it('refuses an authorization in another currency than the card (422), on an unknown card (404), with a live key (403), bad bodies (400)', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    expect((await authorize(t, card.id, { currency: 'EUR' }).expect(422)).body.code).toBe('currency_mismatch');
    await authorize(t, 'crd_01ARZ3NDEKTSV4RRFFQ69G5FAV').expect(404);
    await authorize(t, card.id, {}, KEYS.live).expect(403);
    await authorize(t, card.id, { amount: 0 }).expect(400);
    await authorize(t, card.id, {
      merchant: { name: 'x', mcc: '12', city: 'c', state: 's', postal_code: 'p', country: 'NG' },
    }).expect(400);
    await authorize(t, card.id, { capture: 'yes' }).expect(400);
  });

  it('FX on a reassigned card: converted at the dataset rate, half up with both minor units; capture and hold in the account currency', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account, { individual_controls: { daily_amount_limit: 5_000 } });
    const eur = await account(t, h.entity, 'EUR', 100_000);
    await t.http.patch(`/cards/${card.id}/account`).set(bearer(KEYS.sandbox)).send({ account_id: eur }).expect(200);
    const tx = (await authorize(t, card.id, { amount: 1_000 }).expect(201)).body.data;
    expect(tx).toMatchObject({
      status: 'successful',
      amount: 1_000,
      currency: 'USD',
      account_id: eur,
      fx: { rate: 0.92, account_currency: 'EUR', account_amount: 920 },
    });
    expect(await balance(t, eur)).toEqual({ available: 99_080, current: 99_080 });
    expect(await balance(t, h.account)).toEqual({ available: 10_000, current: 10_000 });
    // Limits stay in the card's currency.
    expect((await authorize(t, card.id, { amount: 4_001 }).expect(201)).body.data.status_reason).toBe('limit_exceeded');
    const held = (await authorize(t, card.id, { amount: 3_000, capture: false }).expect(201)).body.data;
    expect(held.fx.account_amount).toBe(2_760);
    expect(await balance(t, eur)).toEqual({ available: 96_320, current: 99_080 });
    const captured = (await capture(held.id, { amount: 1_001 }).expect(200)).body.data;
    expect(captured).toMatchObject({ amount: 1_001, fx: { rate: 0.92, account_amount: 921 } }); // 920.92 → 921
    expect(await balance(t, eur)).toEqual({ available: 98_159, current: 98_159 });

    const jpy = await account(t, h.entity, 'JPY', 100_000);
    await t.http.patch(`/cards/${card.id}/account`).set(bearer(KEYS.sandbox)).send({ account_id: jpy }).expect(200);
    // 1.00 USD × 154.5 = 154.5 JPY, rounded half up to 155 (JPY has no minor units).
    expect((await authorize(t, card.id, { amount: 100 }).expect(201)).body.data.fx).toEqual({
      rate: 154.5,
      account_currency: 'JPY',
      account_amount: 155,
    });
    expect(await balance(t, jpy)).toEqual({ available: 99_845, current: 99_845 });
  });

  it('GET /card-transactions pages newest first in the spec shape; 404 for an unknown card', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await authorize(t, card.id, { amount: 100 + i }).expect(201)).body.data.id);
    const first = await t.http
      .get(`/card-transactions/${card.id}`)
      .query({ limit: '2' })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(first.body.data.payments.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data.pagination).toEqual({
      order: 'desc',
      has_next: true,
      has_previous: false,
      limit: 2,
      next_cursor: ids[1],
      previous_cursor: null,
    });
    expect(first.body.data.payments[0]).toMatchObject({
      initiator: { type: 'card', card_id: card.id },
      recipient: { name: 'Sandbox Books', address: { country: 'NG' } },
      meta: { provider_code: 'sandbox' },
    });
    const second = await t.http
      .get(`/card-transactions/${card.id}`)
      .query({ limit: '2', cursor: ids[1] })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(second.body.data.payments.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(second.body.data.pagination).toMatchObject({ has_next: false, has_previous: true });
    await t.http.get('/card-transactions/crd_01ARZ3NDEKTSV4RRFFQ69G5FAV').set(bearer(KEYS.sandbox)).expect(404);
  });
});
