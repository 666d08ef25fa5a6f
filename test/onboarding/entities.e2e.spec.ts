import { tokenFor } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { businessBody, createIndividual, individualBody } from './fixtures';

describe('entities: creation and lookup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('POST /entities (quick start)', () => {
    const body = {
      type: 'individual',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      country: 'US',
    };

    it('creates an individual approved at once with a sandbox key', async () => {
      const res = await t.http.post('/entities').set(bearer(KEYS.sandbox)).send(body).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/),
        object: 'entity',
        type: 'individual',
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        country: 'US',
        status: 'active',
        person_id: `per_${res.body.id.slice(4)}`,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      const got = await t.http.get(`/entities/${res.body.id}`).set(bearer(KEYS.sandbox)).expect(200);
      expect(got.body).toMatchObject({ id: res.body.id, type: 'individual', status: 'approved', status_reason: null });
      expect(got.body.profile).toMatchObject({
        first_name: 'Grace',
        last_name: 'Hopper',
        country_of_residence: 'US',
        date_of_birth: null,
      });
      expect(got.body.created).toBe(Date.parse(res.body.created_at));
    });

    it('leaves a live-key quick start pending, to be onboarded', async () => {
      const res = await t.http.post('/entities').set(bearer(KEYS.live)).send(body).expect(201);
      expect(res.body.status).toBe('pending');
      const got = await t.http.get(`/entities/${res.body.id}`).set(bearer(KEYS.live)).expect(200);
      expect(got.body.status).toBe('pending');
    });

    it.each([
      ['a business type', { type: 'business' }, 'type'],
      ['a bad email', { email: 'not-an-email' }, 'email'],
      ['an unknown country', { country: 'XX' }, 'country'],
      ['a lower-case country', { country: 'us' }, 'country'],
      ['an alpha-3 country', { country: 'USA' }, 'country'],
      ['a missing first name', { first_name: undefined }, 'first_name'],
      ['an unknown field', { nickname: 'g' }, 'nickname'],
    ])('refuses %s with 400 naming the field and writes nothing', async (_case, change, field) => {
      await t.settle();
      const before = await t.http.get('/entities?limit=100').set(bearer(KEYS.sandbox)).expect(200);
      const res = await t.http
        .post('/entities')
        .set(bearer(KEYS.sandbox))
        .send({ ...body, ...change })
        .expect(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'validation_error' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      await t.settle();
      const after = await t.http.get('/entities?limit=100').set(bearer(KEYS.sandbox)).expect(200);
      expect(after.body.data.length).toBe(before.body.data.length);
    });

    it('answers 401 without a key and 403 with an entity token', async () => {
      await t.http.post('/entities').send(body).expect(401);
      const entity = await createIndividual(t);
      const token = await tokenFor(t, entity.id);
      const res = await t.http.post('/entities').set(bearer(token)).send(body).expect(403);
      expect(res.body).toMatchObject({ status: 'error', code: 'forbidden' });
      await t.http.post('/individual-entities').set(bearer(token)).send(individualBody()).expect(403);
      await t.http.post('/business-entities').set(bearer(token)).send(businessBody()).expect(403);
    });
  });

  describe('POST /individual-entities', () => {
    it('creates a pending individual with its person_id', async () => {
      const res = await t.http
        .post('/individual-entities')
        .set(bearer(KEYS.sandbox))
        .send(individualBody({ meta: { crm_id: '42' } }))
        .expect(201);
      expect(res.body).toMatchObject({
        object: 'entity',
        type: 'individual',
        status: 'pending',
        person_id: `per_${res.body.id.slice(4)}`,
        profile: individualBody(),
        meta: { crm_id: '42' },
      });
      expect(res.body.created).toEqual(expect.any(Number));
      expect(res.body.updated).toBe(res.body.created);
    });

    it.each([
      ['an impossible date', { date_of_birth: '1990-02-30' }, 'date_of_birth'],
      ['a non-ISO date', { date_of_birth: '31/01/1990' }, 'date_of_birth'],
      ['a future birth date', { date_of_birth: '2999-01-01' }, 'date_of_birth'],
      ['a non-string meta value', { meta: { n: 1 } }, 'meta'],
      ['meta as an array', { meta: ['x'] }, 'meta'],
      ['a missing email', { email: undefined }, 'email'],
      ['an unknown country', { country_of_residence: 'ZZ' }, 'country_of_residence'],
    ])('refuses %s', async (_case, change, field) => {
      const res = await t.http
        .post('/individual-entities')
        .set(bearer(KEYS.sandbox))
        .send(individualBody(change))
        .expect(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.errors[0].field).toBe(field);
    });

    it('answers malformed JSON with invalid_json', async () => {
      const res = await t.http
        .post('/individual-entities')
        .set(bearer(KEYS.sandbox))
        .set('Content-Type', 'application/json')
        .send('{"first_name":')
        .expect(400);
      expect(res.body.code).toBe('invalid_json');
    });
  });

  describe('POST /business-entities', () => {
    it('creates a pending business', async () => {
      const res = await t.http
        .post('/business-entities')
        .set(bearer(KEYS.sandbox))
        .send(businessBody({ trading_name: 'Acme', meta: { tax_id: 'GB1' } }))
        .expect(201);
      expect(res.body).toMatchObject({
        object: 'entity',
        type: 'business',
        status: 'pending',
        profile: {
          legal_name: 'Acme Trading Ltd',
          trading_name: 'Acme',
          business_type: 'llc',
          country_of_incorporation: 'GB',
          registered_address: businessBody().registered_address,
        },
        meta: { tax_id: 'GB1' },
      });
      expect(res.body.person_id).toBeUndefined();
    });

    it.each([
      ['a missing legal name', { legal_name: undefined }, 'legal_name'],
      ['a legal name over 255 characters', { legal_name: 'x'.repeat(256) }, 'legal_name'],
      ['an unknown business type', { business_type: 'trust' }, 'business_type'],
      [
        'an address without city',
        { registered_address: { ...businessBody().registered_address, city: undefined } },
        'registered_address.city',
      ],
      [
        'an address with a bad country',
        { registered_address: { ...businessBody().registered_address, country_code: 'UK' } },
        'registered_address.country_code',
      ],
      ['a missing address', { registered_address: undefined }, 'registered_address'],
    ])('refuses %s', async (_case, change, field) => {
      const res = await t.http
        .post('/business-entities')
        .set(bearer(KEYS.sandbox))
        .send(businessBody(change))
        .expect(400);
      expect(res.body.errors[0].field).toBe(field);
    });
  });

  describe('GET /entities/{id}', () => {
    it("hides another organization's entity as 404", async () => {
      const entity = await createIndividual(t);
      const res = await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.other)).expect(404);
      expect(res.body).toMatchObject({ status: 'error', code: 'entity_not_found' });
      await t.http.get(`/entities/${entity.id}`).set(bearer(KEYS.live)).expect(404);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      await t.http.get('/entities/ent_01ARZ3NDEKTSV4RRFFQ69G5FAV').set(bearer(KEYS.sandbox)).expect(404);
      await t.http.get('/entities/nonsense').set(bearer(KEYS.sandbox)).expect(404);
    });

    it('lets an entity token read its own entity only', async () => {
      const mine = await createIndividual(t);
      const theirs = await createIndividual(t);
      const token = await tokenFor(t, mine.id);
      await t.http.get(`/entities/${mine.id}`).set(bearer(token)).expect(200);
      const res = await t.http.get(`/entities/${theirs.id}`).set(bearer(token)).expect(403);
      expect(res.body.code).toBe('forbidden');
    });
  });
});
