import { EntityTokensService } from '@app/application/access';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';

const quickStart = (t: TestApp, key: string, last_name: string) =>
  t.http
    .post('/entities')
    .set(bearer(key))
    .send({
      type: 'individual',
      first_name: 'Tok',
      last_name,
      email: `${last_name.toLowerCase()}@example.com`,
      country: 'GB',
    })
    .expect(201)
    .then((r) => r.body.id as string);

describe('entity tokens', () => {
  let t: TestApp;
  let mine: string;
  let sibling: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    mine = await quickStart(t, KEYS.sandbox, 'Mine');
    sibling = await quickStart(t, KEYS.sandbox, 'Sibling');
    const sent = Date.now();
    const res = await t.http
      .post('/entity-tokens')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: mine, expires_in: 900 })
      .expect(201);
    const answered = Date.now();
    token = res.body.token;
    expect(res.body.entity_id).toBe(mine);
    // 900 s from when it was issued, which is between the request and its answer (no slack that a busy machine could use up).
    expect(res.body.expires_at).toBeGreaterThanOrEqual(sent + 900_000);
    expect(res.body.expires_at).toBeLessThanOrEqual(answered + 900_000);
    expect(token).toMatch(/^etk_[A-Za-z0-9]{40}$/);
  });
  afterAll(() => t.close());

  it('reads its own entity and is forbidden another entity of the same organization', async () => {
    await t.http.get(`/entities/${mine}`).set(bearer(token)).expect(200);
    const res = await t.http.get(`/entities/${sibling}`).set(bearer(token)).expect(403);
    expect(res.body).toMatchObject({ status: 'error', code: 'forbidden' });
  });

  it('cannot create keys, entities or tokens', async () => {
    await t.http.post('/api-keys').set(bearer(token)).send({}).expect(403);
    await t.http.post('/entity-tokens').set(bearer(token)).send({ entity_id: mine }).expect(403);
    await t.http
      .post('/individual-entities')
      .set(bearer(token))
      .send({
        first_name: 'A',
        last_name: 'B',
        email: 'a@b.co',
        date_of_birth: '1990-01-01',
        country_of_residence: 'GB',
      })
      .expect(403);
  });

  it('lists only its own entity', async () => {
    await t.settle();
    const res = await t.http.get('/entities').set(bearer(token)).expect(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([mine]);
  });

  it('is refused for an entity of another organization, and validates its body', async () => {
    const foreign = await quickStart(t, KEYS.other, 'Foreign');
    const res = await t.http.post('/entity-tokens').set(bearer(KEYS.sandbox)).send({ entity_id: foreign }).expect(404);
    expect(res.body.code).toBe('entity_not_found');
    const tooLong = await t.http
      .post('/entity-tokens')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: mine, expires_in: 86_401 })
      .expect(400);
    expect(tooLong.body.errors[0].field).toBe('expires_in');
    const missing = await t.http.post('/entity-tokens').set(bearer(KEYS.sandbox)).send({}).expect(400);
    expect(missing.body.errors[0].field).toBe('entity_id');
  });

  it('expires', async () => {
    const tokens = t.app.get(EntityTokensService);
    expect(await tokens.resolve(token)).not.toBeNull();
    expect(await tokens.resolve(token, Date.now() + 901_000)).toBeNull();
  });

  it('dies with the revocation of the key that issued it', async () => {
    const key = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'issuer' }).expect(201);
    const issued = await t.http.post('/entity-tokens').set(bearer(key.body.key)).send({ entity_id: mine }).expect(201);
    await t.http.get(`/entities/${mine}`).set(bearer(issued.body.token)).expect(200);
    await t.http.delete(`/api-keys/${key.body.id}`).set(bearer(KEYS.sandbox)).expect(200);
    const res = await t.http.get(`/entities/${mine}`).set(bearer(issued.body.token)).expect(401);
    expect(res.body.code).toBe('unauthorized');
  });
});
