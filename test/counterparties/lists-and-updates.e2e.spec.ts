import { pendingEntity, tokenFor } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { bankDetail, businessProfile, createCounterparty } from './helpers';

describe('counterparty lists and updates', () => {
  let t: TestApp;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await pendingEntity(t);
  });
  afterAll(() => t.close());
  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();
  const patch = (id: string, body: unknown, key: string = KEYS.sandbox) =>
    t.http
      .patch(`/counterparties/${id}`)
      .set(bearer(key))
      .send(body as object);

  it('lists newest first with type and status filters and a cursor; entity_id is required with an API key', async () => {
    const lister = await pendingEntity(t);
    const a = await createCounterparty(t, lister);
    const b = await createCounterparty(t, lister, { type: 'business', profile: businessProfile() });
    const c = await createCounterparty(t, lister);
    await t.http.post(`/counterparties/${c.id}/deactivate`).set(bearer(KEYS.sandbox)).send({}).expect(200);
    await t.settle();
    const all = await t.http.get(`/counterparties?entity_id=${lister}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(all.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body.meta.pagination).toEqual({ has_more: false, next_cursor: null });
    const got = await t.http.get(`/counterparties/${c.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(all.body.data[0]).toEqual(got.body);
    const businesses = await t.http
      .get(`/counterparties?entity_id=${lister}&type=business`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(businesses.body.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    const active = await t.http
      .get(`/counterparties?entity_id=${lister}&status=active&limit=1`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(active.body).toMatchObject({
      data: [{ id: b.id }],
      meta: { pagination: { has_more: true, next_cursor: b.id } },
    });
    const next = await t.http
      .get(`/counterparties?entity_id=${lister}&status=active&limit=1&cursor=${b.id}`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(next.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const missing = await t.http.get('/counterparties').set(bearer(KEYS.sandbox)).expect(400);
    expect(missing.body.errors[0].field).toBe('entity_id');
    const token = await tokenFor(t, lister);
    const inferred = await t.http.get('/counterparties').set(bearer(token)).expect(200);
    expect(inferred.body.data).toHaveLength(3);
    await t.http.get(`/counterparties?entity_id=${entity}`).set(bearer(token)).expect(403);
    const foreign = await t.http.get(`/counterparties?entity_id=${lister}`).set(bearer(KEYS.other)).expect(200);
    expect(foreign.body.data).toEqual([]);
  });

  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['cursor', 'cursor=nope'],
    ['status', 'status=deleted'],
    ['type', 'type=robot'],
  ])('answers 400 naming %s for %s', async (field, qs) => {
    const res = await t.http.get(`/counterparties?entity_id=${entity}&${qs}`).set(bearer(KEYS.sandbox)).expect(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('updates part of the profile, merging the address, and leaves the rest unchanged', async () => {
    const cpt = await createCounterparty(t, entity, {
      profile: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'g@example.com',
        address: { line1: '1 Navy Way', city: 'Arlington', country: 'US' },
      },
    });
    const res = await patch(cpt.id, {
      nickname: 'Amazing Grace',
      profile: { address: { postal_code: '22202' }, relationship: 'vendor' },
      meta: { k: 'v' },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      nickname: 'Amazing Grace',
      meta: { k: 'v' },
      profile: {
        first_name: 'Grace',
        email: 'g@example.com',
        relationship: 'vendor',
        address: { line1: '1 Navy Way', city: 'Arlington', country: 'US', postal_code: '22202' },
      },
    });
    expect(res.body.updated).toBeGreaterThanOrEqual(res.body.created);
    const before = await head();
    await patch(cpt.id, { nickname: 'Amazing Grace' }).expect(200);
    expect(await head()).toBe(before);
    await t.settle();
    const listed = await t.http.get(`/counterparties?entity_id=${entity}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(listed.body.data.find((x: { id: string }) => x.id === cpt.id)).toEqual(res.body);
  });

  it.each([
    ['nickname', { nickname: 'n'.repeat(256) }],
    ['profile.first_name', { profile: { first_name: 'f'.repeat(101) } }],
    ['profile.address.line1', { profile: { address: { city: 'Lagos', country: 'NG' } } }],
    ['profile.address.postal_code', { profile: { address: { postal_code: '1'.repeat(21) } } }],
    ['profile.legal_name', { profile: { legal_name: 'Acme' } }],
    ['entity_id', { entity_id: 'ent_nope' }],
  ])('answers 400 naming %s on PATCH, writing nothing', async (field, body) => {
    const cpt = await createCounterparty(t, entity);
    const before = await head();
    const res = await patch(cpt.id, body).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await head()).toBe(before);
  });

  it('checks a business profile patch against the business shape', async () => {
    const business = await createCounterparty(t, entity, { type: 'business', profile: businessProfile() });
    await patch(business.id, { profile: { trading_name: 't'.repeat(256) } }).expect(400);
    await patch(business.id, { profile: { first_name: 'Grace' } }).expect(400);
    const res = await patch(business.id, { profile: { trading_name: 'Acme' } }).expect(200);
    expect(res.body.profile).toMatchObject({ legal_name: 'Acme Supplies Ltd', trading_name: 'Acme' });
  });

  it('reassigns to another entity of the organization, details following, and refuses foreign entities', async () => {
    const cpt = await createCounterparty(t, entity);
    await t.http
      .post(`/counterparties/${cpt.id}/payment-details`)
      .set(bearer(KEYS.sandbox))
      .send(bankDetail({ scheme: 'aba', code: '021000021', account_number: '12345678' }))
      .expect(201);
    const target = await pendingEntity(t);
    const moved = await patch(cpt.id, { entity_id: target }).expect(200);
    expect(moved.body.entity_id).toBe(target);
    await t.settle();
    const details = await t.http.get(`/counterparties/${cpt.id}/payment-details`).set(bearer(KEYS.sandbox)).expect(200);
    expect(details.body.data[0].entity_id).toBe(target);
    const oldToken = await tokenFor(t, entity);
    await t.http.get(`/counterparties/${cpt.id}`).set(bearer(oldToken)).expect(403);
    await t.http
      .get(`/counterparties/${cpt.id}`)
      .set(bearer(await tokenFor(t, target)))
      .expect(200);
    await patch(cpt.id, { entity_id: await pendingEntity(t, KEYS.other) }).expect(404);
    await patch(cpt.id, { entity_id: entity }, await tokenFor(t, target)).expect(403);
  });
});
