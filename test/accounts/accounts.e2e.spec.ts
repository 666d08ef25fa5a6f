import { approvedEntity, pendingEntity, tokenFor } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { ACC_ID, UNKNOWN_ACCOUNT, openAccount } from './accounts-helpers';

describe('accounts', () => {
  let t: TestApp;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t, KEYS.sandbox);
  });
  afterAll(() => t.close());

  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();

  it('opens a checking account for an approved entity with zero balances', async () => {
    const res = await t.http
      .post('/accounts')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, type: 'checking', currency: 'USD', display_name: 'Operating' })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(ACC_ID),
      object: 'account',
      entity_id: entity,
      type: 'checking',
      currency: 'USD',
      display_name: 'Operating',
      service_ban: expect.stringMatching(/^[1-9]\d{9}$/),
      balance: { available: 0, current: 0 },
      created: expect.any(Number),
      updated: res.body.created,
    });
    const got = await t.http.get(`/accounts/${res.body.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('defaults type and display name, and accepts stablecoins and any ISO 4217 currency', async () => {
    const usc = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USC' });
    expect(usc).toMatchObject({ currency: 'USC', type: 'checking', display_name: 'USC account' });
    const jpy = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'JPY', display_name: 'Tokyo' });
    expect(jpy.currency).toBe('JPY');
  });

  it.each([
    [{ currency: 'USD' }, 'entity_id'],
    [{ entity_id: 'ent_nope', currency: 'USD' }, 'entity_id'],
    [{ currency: 'XYZ' }, 'currency'],
    [{ currency: 'usd' }, 'currency'],
    [{ currency: 'XAU' }, 'currency'],
    [{ type: 'savings', currency: 'USD' }, 'type'],
    [{ currency: 'USD', display_name: '' }, 'display_name'],
    [{ currency: 'USD', display_name: 'x'.repeat(101) }, 'display_name'],
    [{ currency: 'USD', colour: 'blue' }, 'colour'],
    [{}, 'currency'],
  ])('answers 400 naming the field for %p, and writes nothing', async (body, field) => {
    const withEntity = 'entity_id' in body || field === 'entity_id' ? body : { entity_id: entity, ...body };
    const before = await head();
    const res = await t.http.post('/accounts').set(bearer(KEYS.sandbox)).send(withEntity).expect(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'validation_error' });
    expect(res.body.errors[0].field).toBe(field);
    expect(await head()).toBe(before);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await t.http
      .post('/accounts')
      .set(bearer(KEYS.sandbox))
      .set('Content-Type', 'application/json')
      .send('{"currency":')
      .expect(400);
    expect(res.body.code).toBe('invalid_json');
  });

  it('answers 401 without a valid key', async () => {
    await t.http.post('/accounts').send({ entity_id: entity, currency: 'USD' }).expect(401);
    await t.http.get('/accounts').set(bearer('sk_test_doesnotexistdoesnotexist')).expect(401);
  });

  it('refuses an entity that is not approved with 422 entity_not_approved, writing nothing', async () => {
    const pending = await pendingEntity(t, KEYS.sandbox);
    const before = await head();
    const res = await t.http
      .post('/accounts')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: pending, currency: 'USD' })
      .expect(422);
    expect(res.body).toMatchObject({ status: 'error', code: 'entity_not_approved' });
    expect(await head()).toBe(before);
  });

  it("answers 404 for an unknown entity and for another organization's entity", async () => {
    const unknown = await t.http
      .post('/accounts')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: 'ent_01ARZ3NDEKTSV4RRFFQ69G5FAV', currency: 'USD' })
      .expect(404);
    expect(unknown.body.code).toBe('entity_not_found');
    const res = await t.http
      .post('/accounts')
      .set(bearer(KEYS.other))
      .send({ entity_id: entity, currency: 'USD' })
      .expect(404);
    expect(res.body.code).toBe('entity_not_found');
  });

  it("answers 404 for an unknown account and for another organization's account", async () => {
    const acc = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    expect((await t.http.get(`/accounts/${UNKNOWN_ACCOUNT}`).set(bearer(KEYS.sandbox)).expect(404)).body.code).toBe(
      'account_not_found',
    );
    expect((await t.http.get(`/accounts/${acc.id}`).set(bearer(KEYS.other)).expect(404)).body.code).toBe(
      'account_not_found',
    );
    await t.http.get('/accounts/not-an-id').set(bearer(KEYS.sandbox)).expect(404);
  });

  it('infers the entity from an entity token and forbids another entity', async () => {
    const mine = await approvedEntity(t, KEYS.sandbox, 'Token');
    const token = await tokenFor(t, mine, KEYS.sandbox);
    const res = await t.http.post('/accounts').set(bearer(token)).send({ currency: 'GBP' }).expect(201);
    expect(res.body.entity_id).toBe(mine);
    await t.http.post('/accounts').set(bearer(token)).send({ entity_id: mine, currency: 'GBP' }).expect(201);
    expect(
      (await t.http.post('/accounts').set(bearer(token)).send({ entity_id: entity, currency: 'GBP' }).expect(403)).body
        .code,
    ).toBe('forbidden');

    const theirs = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'GBP' });
    expect((await t.http.get(`/accounts/${theirs.id}`).set(bearer(token)).expect(403)).body.code).toBe('forbidden');
    await t.http.get(`/accounts/${res.body.id}`).set(bearer(token)).expect(200);
  });

  describe('list', () => {
    let owner: string;
    let ids: string[];
    // ULIDs order by time; two opened in the same millisecond order by their random part.
    const newestFirst = (xs: string[]) => [...xs].sort().reverse();
    beforeAll(async () => {
      owner = await approvedEntity(t, KEYS.sandbox, 'Lister');
      ids = [];
      for (const currency of ['USD', 'NGN', 'USD', 'EUR', 'USD'])
        ids.push((await openAccount(t, KEYS.sandbox, { entity_id: owner, currency })).id);
      await t.settle();
    });

    it('lists newest first in style A, filtered by entity and currency', async () => {
      const all = await t.http.get(`/accounts?entity_id=${owner}`).set(bearer(KEYS.sandbox)).expect(200);
      expect(all.body.data.map((a: { id: string }) => a.id)).toEqual(newestFirst(ids));
      expect(all.body.meta).toEqual({ pagination: { has_more: false, next_cursor: null } });
      const usd = await t.http.get(`/accounts?entity_id=${owner}&currency=USD`).set(bearer(KEYS.sandbox)).expect(200);
      expect(usd.body.data.map((a: { id: string }) => a.id)).toEqual(newestFirst([ids[0], ids[2], ids[4]]));
      expect(usd.body.data[0]).toMatchObject({ object: 'account', balance: { available: 0, current: 0 } });
    });

    it('pages with limit and cursor', async () => {
      const first = await t.http.get(`/accounts?entity_id=${owner}&limit=2`).set(bearer(KEYS.sandbox)).expect(200);
      const order = newestFirst(ids);
      expect(first.body.data.map((a: { id: string }) => a.id)).toEqual(order.slice(0, 2));
      expect(first.body.meta.pagination).toEqual({ has_more: true, next_cursor: order[1] });
      const next = await t.http
        .get(`/accounts?entity_id=${owner}&limit=2&cursor=${order[1]}`)
        .set(bearer(KEYS.sandbox))
        .expect(200);
      expect(next.body.data.map((a: { id: string }) => a.id)).toEqual(order.slice(2, 4));
      const last = await t.http
        .get(`/accounts?entity_id=${owner}&limit=2&cursor=${order[3]}`)
        .set(bearer(KEYS.sandbox))
        .expect(200);
      expect(last.body.data.map((a: { id: string }) => a.id)).toEqual(order.slice(4));
      expect(last.body.meta.pagination).toEqual({ has_more: false, next_cursor: null });
    });

    it('answers 400 for a bad limit, cursor or filter', async () => {
      for (const q of ['limit=0', 'limit=101', 'cursor=nope', 'currency=usd', 'entity_id=ent_x']) {
        const res = await t.http.get(`/accounts?${q}`).set(bearer(KEYS.sandbox)).expect(400);
        expect(res.body.errors[0].field).toBe(q.split('=')[0]);
      }
    });

    it('lists across the organization with an API key, never another organization', async () => {
      const mine = await t.http.get('/accounts?limit=100').set(bearer(KEYS.sandbox)).expect(200);
      expect(mine.body.data.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(ids));
      const other = await t.http.get('/accounts?limit=100').set(bearer(KEYS.other)).expect(200);
      expect(other.body.data).toEqual([]);
      const filtered = await t.http.get(`/accounts?entity_id=${owner}`).set(bearer(KEYS.other)).expect(200);
      expect(filtered.body.data).toEqual([]);
    });

    it("shows an entity token only its entity's accounts and forbids asking for another", async () => {
      const token = await tokenFor(t, owner, KEYS.sandbox);
      const res = await t.http.get('/accounts?limit=100').set(bearer(token)).expect(200);
      expect(res.body.data.map((a: { id: string }) => a.id)).toEqual(newestFirst(ids));
      await t.http.get(`/accounts?entity_id=${entity}`).set(bearer(token)).expect(403);
    });
  });
});
