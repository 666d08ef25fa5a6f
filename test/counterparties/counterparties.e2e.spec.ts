import { pendingEntity, tokenFor } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { businessProfile, CPT_ID, createCounterparty, individualProfile, UNKNOWN_CPT } from './helpers';

describe('counterparties', () => {
  let t: TestApp;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await pendingEntity(t);
  });
  afterAll(() => t.close());
  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();

  it('creates an individual with every profile field, the nickname defaulting to first + last name', async () => {
    const profile = individualProfile({
      relationship: 'contractor',
      email: 'grace@example.com',
      address: {
        line1: '1 Navy Way',
        line2: 'Suite 2',
        city: 'Arlington',
        state_or_province: 'VA',
        postal_code: '22202',
        country: 'US',
      },
      identification: [{ type: 'P', number: 'X1234567', issuing_country: 'US' }],
      phone: { number: '+12025550143', type: 'mobile', country: 'US' },
    });
    const res = await t.http
      .post('/counterparties')
      .set(bearer(KEYS.sandbox))
      .send({ type: 'individual', entity_id: entity, profile, meta: { ref: 'c-1' } })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(CPT_ID),
      object: 'counterparty',
      entity_id: entity,
      type: 'individual',
      nickname: 'Grace Hopper',
      status: 'active',
      profile: { ...profile, trading_name: undefined },
      meta: { ref: 'c-1' },
      created: expect.any(Number),
      updated: res.body.created,
    });
    const got = await t.http.get(`/counterparties/${res.body.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body).toEqual(res.body);
  });

  it('creates a business whose nickname defaults to its legal name, and keeps a given nickname', async () => {
    const business = await createCounterparty(t, entity, {
      type: 'business',
      profile: businessProfile({
        trading_name: 'Acme',
        identification: [{ type: 'L', number: 'RC-1', issuing_country: 'NG' }],
      }),
    });
    expect(business).toMatchObject({
      type: 'business',
      nickname: 'Acme Supplies Ltd',
      profile: { legal_name: 'Acme Supplies Ltd', trading_name: 'Acme', address: null },
    });
    const named = await createCounterparty(t, entity, { nickname: 'Landlord' });
    expect(named.nickname).toBe('Landlord');
  });

  it.each([
    ['nickname', { nickname: 'n'.repeat(256) }],
    ['profile.first_name', { profile: individualProfile({ first_name: 'f'.repeat(101) }) }],
    ['profile.first_name', { profile: individualProfile({ first_name: '' }) }],
    ['profile.last_name', { profile: individualProfile({ last_name: 'l'.repeat(101) }) }],
    [
      'profile.address.line1',
      { profile: individualProfile({ address: { line1: 'a'.repeat(256), city: 'X', country: 'US' } }) },
    ],
    ['profile.address.line1', { profile: individualProfile({ address: { line1: '', city: 'X', country: 'US' } }) }],
    [
      'profile.address.state_or_province',
      {
        profile: individualProfile({
          address: { line1: 'a', city: 'X', country: 'US', state_or_province: 's'.repeat(101) },
        }),
      },
    ],
    [
      'profile.address.postal_code',
      {
        profile: individualProfile({ address: { line1: 'a', city: 'X', country: 'US', postal_code: '1'.repeat(21) } }),
      },
    ],
    ['profile.address.country', { profile: individualProfile({ address: { line1: 'a', city: 'X', country: 'USA' } }) }],
    ['profile.legal_name', { type: 'business', profile: businessProfile({ legal_name: 'b'.repeat(256) }) }],
    ['profile.trading_name', { type: 'business', profile: businessProfile({ trading_name: 't'.repeat(256) }) }],
    [
      'profile.identification[0].type',
      { profile: individualProfile({ identification: [{ type: 'L', number: '1', issuing_country: 'US' }] }) },
    ],
    [
      'profile.identification[0].type',
      {
        type: 'business',
        profile: businessProfile({ identification: [{ type: 'P', number: '1', issuing_country: 'US' }] }),
      },
    ],
    ['profile.phone.number', { profile: individualProfile({ phone: { number: '02025550143' } }) }],
    ['profile.phone.country', { profile: individualProfile({ phone: { number: '+12025550143', country: 'GB' } }) }],
    ['profile.phone.type', { profile: individualProfile({ phone: { number: '+12025550143', type: 'pager' } }) }],
    ['profile.email', { profile: individualProfile({ email: 'not-an-email' }) }],
    ['profile.legal_name', { type: 'business', profile: individualProfile() }],
    ['profile.colour', { profile: individualProfile({ colour: 'blue' }) }],
    ['type', { type: 'robot' }],
    ['entity_id', { entity_id: undefined }],
  ])('answers 400 naming %s, and writes nothing', async (field, over) => {
    const before = await head();
    const res = await t.http
      .post('/counterparties')
      .set(bearer(KEYS.sandbox))
      .send({ type: 'individual', entity_id: entity, profile: individualProfile(), ...over })
      .expect(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'validation_error' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await head()).toBe(before);
  });

  it('accepts each limit exactly at its bound', async () => {
    const at = await createCounterparty(t, entity, {
      nickname: 'n'.repeat(255),
      profile: individualProfile({
        first_name: 'f'.repeat(100),
        last_name: 'l'.repeat(100),
        address: {
          line1: 'a'.repeat(255),
          city: 'X',
          country: 'US',
          state_or_province: 's'.repeat(100),
          postal_code: '1'.repeat(20),
        },
      }),
    });
    expect(at.nickname).toHaveLength(255);
    const business = await createCounterparty(t, entity, {
      type: 'business',
      profile: businessProfile({ legal_name: 'b'.repeat(255), trading_name: 't'.repeat(255) }),
    });
    expect(business.nickname).toHaveLength(255);
  });

  it("answers 404 for an unknown entity, another organization's entity and an unknown counterparty", async () => {
    const other = await pendingEntity(t, KEYS.other);
    await t.http
      .post('/counterparties')
      .set(bearer(KEYS.sandbox))
      .send({ type: 'individual', entity_id: 'ent_01ARZ3NDEKTSV4RRFFQ69G5FAV', profile: individualProfile() })
      .expect(404);
    const res = await t.http
      .post('/counterparties')
      .set(bearer(KEYS.sandbox))
      .send({ type: 'individual', entity_id: other, profile: individualProfile() })
      .expect(404);
    expect(res.body.code).toBe('entity_not_found');
    await t.http.get(`/counterparties/${UNKNOWN_CPT}`).set(bearer(KEYS.sandbox)).expect(404);
    await t.http.get('/counterparties/nope').set(bearer(KEYS.sandbox)).expect(404);
  });

  it("hides a counterparty from another organization (404) and from another entity's token (403)", async () => {
    const cpt = await createCounterparty(t, entity);
    const res = await t.http.get(`/counterparties/${cpt.id}`).set(bearer(KEYS.other)).expect(404);
    expect(res.body.code).toBe('counterparty_not_found');
    await t.http.patch(`/counterparties/${cpt.id}`).set(bearer(KEYS.other)).send({ nickname: 'x' }).expect(404);
    await t.http.post(`/counterparties/${cpt.id}/deactivate`).set(bearer(KEYS.other)).send({}).expect(404);
    const second = await pendingEntity(t);
    const token = await tokenFor(t, second);
    await t.http.get(`/counterparties/${cpt.id}`).set(bearer(token)).expect(403);
    await t.http.patch(`/counterparties/${cpt.id}`).set(bearer(token)).send({ nickname: 'x' }).expect(403);
    await t.http.post(`/counterparties/${cpt.id}/deactivate`).set(bearer(token)).send({}).expect(403);
    const own = await tokenFor(t, entity);
    await t.http.get(`/counterparties/${cpt.id}`).set(bearer(own)).expect(200);
    await t.http
      .post('/counterparties')
      .set(bearer(own))
      .send({ type: 'individual', entity_id: second, profile: individualProfile() })
      .expect(403);
    const inferred = await t.http
      .post('/counterparties')
      .set(bearer(own))
      .send({ type: 'individual', profile: individualProfile() })
      .expect(201);
    expect(inferred.body.entity_id).toBe(entity);
  });

  it('deactivates once (200, inactive), then answers 409', async () => {
    const cpt = await createCounterparty(t, entity);
    const res = await t.http
      .post(`/counterparties/${cpt.id}/deactivate`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity })
      .expect(200);
    expect(res.body).toMatchObject({ id: cpt.id, status: 'inactive' });
    const again = await t.http
      .post(`/counterparties/${cpt.id}/deactivate`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity })
      .expect(409);
    expect(again.body).toMatchObject({ status: 'error', code: 'counterparty_inactive' });
    const other = await pendingEntity(t);
    const fresh = await createCounterparty(t, entity);
    await t.http
      .post(`/counterparties/${fresh.id}/deactivate`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: other })
      .expect(404);
  });
});
