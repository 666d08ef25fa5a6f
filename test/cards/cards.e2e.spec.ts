import { isLuhnValid } from '@app/domain/cards';
import { approvedEntity, tokenFor } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { account, authorize, details, disposableBody, holder, UNKNOWN_CARD, virtualBody, virtualCard } from './helpers';

const UNKNOWN_ACCOUNT = 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV';

describe('cards: issue, read, list, lifecycle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const post = (path: string, body: object, key: string = KEYS.sandbox) =>
    t.http.post(path).set(bearer(key)).send(body);
  const patch = (path: string, body: object = {}, key: string = KEYS.sandbox) =>
    t.http.patch(path).set(bearer(key)).send(body);

  it('issues a virtual card: wrapped, active, Luhn-valid sandbox number, 3 years ahead, controls normalised', async () => {
    const h = await holder(t);
    const res = await post(
      '/virtual-cards',
      virtualBody(h.account, {
        individual_controls: { billing_cycle: 'Weekly', billing_cycle_day: 'Monday', daily_amount_limit: 500 },
        metadata: { team: 'ops' },
        transaction_alerts: true,
      }),
    ).expect(201);
    expect(res.body.status).toBe('success');
    const card = res.body.data;
    expect(card).toMatchObject({
      id: expect.stringMatching(/^crd_/),
      status: 'active',
      type: 'virtual',
      currency: 'USD',
      amount: 100_000,
      first_name: 'Ada',
      shipping: null,
      metadata: { team: 'ops' },
      transaction_alerts: true,
    });
    expect(card.number).toMatch(/^499999\d{10}$/);
    expect(isLuhnValid(card.number)).toBe(true);
    expect(card.cvv).toMatch(/^\d{3}$/);
    expect(card.last_four).toBe(card.number.slice(-4));
    expect(Number(card.expiration_year)).toBe((new Date().getUTCFullYear() + 3) % 100);
    expect(card.individual_controls).toEqual({
      billing_cycle: 'Weekly',
      billing_cycle_day: 'Monday',
      daily_amount_limit: 500,
      cycle_transaction_count: null,
      daily_transaction_count: null,
      transaction_amount_limit: null,
    });
    expect(card.individual_mcc_controls).toEqual([]);
    expect(card.mcc_group_controls).toEqual([]);
  });

  it('issues a disposable card with the requested expiry and empty controls', async () => {
    const h = await holder(t);
    const res = await post('/disposable-cards', disposableBody(h.account)).expect(201);
    expect(res.body.data).toMatchObject({
      type: 'disposable',
      status: 'active',
      expiration_month: '12',
      expiration_year: '30',
      individual_controls: {},
      individual_mcc_controls: [],
      mcc_group_controls: [],
    });
    expect(isLuhnValid(res.body.data.number)).toBe(true);
  });

  it('refuses bad bodies with 400 naming the field, and an unknown account with 404', async () => {
    const h = await holder(t);
    const cases: Array<[string, object, string]> = [
      ['/virtual-cards', { ...virtualBody(h.account), card_name: undefined }, 'card_name'],
      ['/virtual-cards', virtualBody(h.account, { currency: 'usd' }), 'currency'],
      ['/virtual-cards', virtualBody(h.account, { currency: 'ZZZ' }), 'currency'],
      ['/virtual-cards', virtualBody(h.account, { amount: 0 }), 'amount'],
      [
        '/virtual-cards',
        virtualBody(h.account, {
          cardholder: { first_name: 'A', last_name: 'B', email: 'a@b.co', phone_number: '0801' },
        }),
        'cardholder.phone_number',
      ],
      [
        '/virtual-cards',
        virtualBody(h.account, { individual_controls: { billing_cycle: 'Fortnightly' } }),
        'individual_controls.billing_cycle',
      ],
      [
        '/virtual-cards',
        virtualBody(h.account, { individual_controls: { daily_amount_limit: -1 } }),
        'individual_controls.daily_amount_limit',
      ],
      [
        '/virtual-cards',
        virtualBody(h.account, { individual_controls: { colour: 'red' } }),
        'individual_controls.colour',
      ],
      [
        '/virtual-cards',
        virtualBody(h.account, { individual_mcc_controls: [{ mcc: '59' }] }),
        'individual_mcc_controls[0].mcc',
      ],
      [
        '/virtual-cards',
        virtualBody(h.account, { mcc_group_controls: [{ group_name: 'spaceships' }] }),
        'mcc_group_controls[0].group_name',
      ],
      ['/virtual-cards', virtualBody(h.account, { surprise: true }), 'surprise'],
      ['/disposable-cards', disposableBody(h.account, { expiration_month: '13' }), 'expiration_month'],
      ['/disposable-cards', disposableBody(h.account, { expiration_year: '20' }), 'expiration_year'],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(path, body);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(res.body.errors[0].field).toBe(field);
    }
    const missing = await post('/virtual-cards', virtualBody(UNKNOWN_ACCOUNT)).expect(404);
    expect(missing.body).toMatchObject({ status: 'error', code: 'account_not_found' });
  });

  it('GET /card-details answers 404 for an unknown card or another organization, 403 for another entity', async () => {
    const a = await holder(t);
    const card = await virtualCard(t, a.account);
    await details(t, UNKNOWN_CARD).expect(404);
    await details(t, 'not-a-card').expect(404);
    await details(t, card.id, KEYS.other).expect(404);
    await details(t, card.id, KEYS.live).expect(404);
    const other = await approvedEntity(t, KEYS.sandbox, 'Other');
    const token = await tokenFor(t, other);
    const res = await details(t, card.id, token).expect(403);
    expect(res.body.code).toBe('forbidden');
    for (const path of [`/card-details/${card.id}/freeze`, `/card-details/${card.id}/unfreeze`])
      await patch(path, {}, token).expect(403);
    await t.http.delete(`/card-details/${card.id}`).set(bearer(token)).expect(403);
    await t.http.get(`/card-transactions/${card.id}`).set(bearer(token)).expect(403);
    // The owner's token sees it.
    const own = await tokenFor(t, a.entity);
    expect((await details(t, card.id, own).expect(200)).body.data.id).toBe(card.id);
  });

  it('GET /cards lists the last four digits only, filters by account, excludes deleted cards, pages', async () => {
    const h = await holder(t);
    const second = await account(t, h.entity, 'USD');
    const [c1, c2, c3] = [
      await virtualCard(t, h.account),
      await virtualCard(t, h.account),
      await virtualCard(t, second),
    ];
    await patch(`/card-details/${c2.id}/freeze`).expect(200);
    await t.http.delete(`/card-details/${c1.id}`).set(bearer(KEYS.sandbox)).expect(200);
    const all = await t.http.get('/cards').query({ entity_id: h.entity }).set(bearer(KEYS.sandbox)).expect(200);
    expect(all.body.data.cards.map((c: { id: string }) => c.id)).toEqual([c3.id, c2.id]);
    expect(all.body.data.cards[1]).toEqual({
      id: c2.id,
      name: 'Team card',
      status: 'blocked',
      type: 'virtual',
      last_four: c2.number.slice(-4),
      account_id: h.account,
      created: expect.any(Number),
    });
    expect(JSON.stringify(all.body)).not.toContain(c2.number);
    const byAccount = await t.http.get('/cards').query({ account_id: second }).set(bearer(KEYS.sandbox)).expect(200);
    expect(byAccount.body.data.cards.map((c: { id: string }) => c.id)).toEqual([c3.id]);
    const page = await t.http
      .get('/cards')
      .query({ entity_id: h.entity, limit: '1' })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(page.body.data.pagination).toEqual({
      has_next: true,
      has_previous: false,
      next_cursor: c3.id,
      prev_cursor: null,
    });
    const next = await t.http
      .get('/cards')
      .query({ entity_id: h.entity, limit: '1', next_cursor: c3.id })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(next.body.data.cards.map((c: { id: string }) => c.id)).toEqual([c2.id]);
    await t.http.get('/cards').set(bearer(KEYS.sandbox)).expect(400);
    await t.http.get('/cards').query({ entity_id: h.entity, limit: '0' }).set(bearer(KEYS.sandbox)).expect(400);
    // Another mode never lists it.
    const live = await t.http.get('/cards').query({ entity_id: h.entity }).set(bearer(KEYS.live)).expect(200);
    expect(live.body.data.cards).toEqual([]);
  });

  it('freeze, unfreeze, delete and fraud follow the state table', async () => {
    const h = await holder(t);
    const card = await virtualCard(t, h.account);
    const frozen = await patch(`/card-details/${card.id}/freeze`).expect(200);
    expect(frozen.body.data).toEqual({ id: card.id, status: 'blocked', updated: expect.any(Number) });
    expect((await authorize(t, card.id).expect(201)).body.data).toMatchObject({
      status: 'declined',
      status_reason: 'card_blocked',
    });
    expect((await patch(`/card-details/${card.id}/unfreeze`).expect(200)).body.data.status).toBe('active');
    expect((await authorize(t, card.id).expect(201)).body.data.status).toBe('successful');
    const deleted = await t.http.delete(`/card-details/${card.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(deleted.body.data).toEqual({ id: card.id, status: 'blocked', deleted: expect.any(Number) });
    expect((await patch(`/card-details/${card.id}/freeze`).expect(409)).body.code).toBe('card_deleted');
    expect((await patch(`/card-details/${card.id}/unfreeze`).expect(409)).body.code).toBe('card_deleted');
    // Record retained: still readable, history kept.
    expect((await details(t, card.id).expect(200)).body.data).toMatchObject({
      status: 'blocked',
      deleted: deleted.body.data.deleted,
    });

    const other = await virtualCard(t, h.account);
    const fraud = await t.http.post(`/sandbox/cards/${other.id}/fraud`).set(bearer(KEYS.sandbox)).expect(200);
    expect(fraud.body.data).toEqual({ id: other.id, status: 'fraud', updated: expect.any(Number) });
    expect((await authorize(t, other.id).expect(201)).body.data).toMatchObject({
      status: 'declined',
      status_reason: 'card_blocked',
    });
    expect((await patch(`/card-details/${other.id}/freeze`).expect(409)).body.code).toBe('card_fraud');
    expect((await patch(`/card-details/${other.id}/unfreeze`).expect(409)).body.code).toBe('card_fraud');
    await t.http.post(`/sandbox/cards/${other.id}/fraud`).set(bearer(KEYS.live)).expect(403);
    await t.http.post(`/sandbox/cards/${UNKNOWN_CARD}/fraud`).set(bearer(KEYS.sandbox)).expect(404);
    for (const path of [`/card-details/${UNKNOWN_CARD}/freeze`, `/card-details/${UNKNOWN_CARD}/unfreeze`])
      await patch(path).expect(404);
  });

  it('reassigns: 200 with card_id and account_id, 409 to the same account, 404 unknown card or account, 422 another entity', async () => {
    const h = await holder(t);
    const card = await virtualCard(t, h.account);
    const target = await account(t, h.entity, 'EUR');
    const res = await patch(`/cards/${card.id}/account`, { account_id: target }).expect(200);
    expect(res.body.data).toMatchObject({ card_id: card.id, account_id: target });
    expect((await details(t, card.id)).body.data.account_id).toBe(target);
    expect((await patch(`/cards/${card.id}/account`, { account_id: target }).expect(409)).body.code).toBe(
      'card_already_assigned',
    );
    await patch(`/cards/${UNKNOWN_CARD}/account`, { account_id: target }).expect(404);
    expect((await patch(`/cards/${card.id}/account`, { account_id: UNKNOWN_ACCOUNT }).expect(404)).body.code).toBe(
      'account_not_found',
    );
    await patch(`/cards/${card.id}/account`, { account_id: 'nope' }).expect(400);
    const stranger = await holder(t);
    expect((await patch(`/cards/${card.id}/account`, { account_id: stranger.account }).expect(422)).body.code).toBe(
      'entity_mismatch',
    );
  });

  it('refuses an account currency the FX table cannot convert to (422 fx_not_supported), at creation and reassignment', async () => {
    const h = await holder(t);
    const brl = await account(t, h.entity, 'BRL');
    expect((await post('/virtual-cards', virtualBody(brl)).expect(422)).body.code).toBe('fx_not_supported');
    const card = await virtualCard(t, h.account);
    expect((await patch(`/cards/${card.id}/account`, { account_id: brl }).expect(422)).body.code).toBe(
      'fx_not_supported',
    );
    // A card in the account's own currency needs no rate.
    await post('/virtual-cards', virtualBody(brl, { currency: 'BRL' })).expect(201);
  });

  it("works with an entity token: creates on its own accounts, lists without entity_id, 403 on another entity's account", async () => {
    const h = await holder(t);
    const token = await tokenFor(t, h.entity);
    const created = await post('/virtual-cards', virtualBody(h.account), token).expect(201);
    const listed = await t.http.get('/cards').set(bearer(token)).expect(200);
    expect(listed.body.data.cards.map((c: { id: string }) => c.id)).toEqual([created.body.data.id]);
    const stranger = await holder(t);
    await post('/virtual-cards', virtualBody(stranger.account), token).expect(403);
    await t.http.get('/cards').query({ entity_id: stranger.entity }).set(bearer(token)).expect(403);
  });
});
