import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';

describe('API keys and authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers health without a key, with a request id', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it.each([
    ['missing', undefined],
    ['malformed', 'Basic abc'],
    ['unknown', 'Bearer sk_test_unknownunknownunknownunknown'],
    ['wrong prefix', 'Bearer pk_test_somethingsomething'],
  ])('refuses a %s key with 401 in the envelope', async (_case, header) => {
    const req = t.http.get('/api-keys/current');
    const res = await (header ? req.set('Authorization', header) : req).expect(401);
    expect(res.body).toMatchObject({ status: 'error', code: 'unauthorized', errors: [] });
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('describes the current key with an RSA public key, never the secret', async () => {
    const res = await t.http.get('/api-keys/current').set(bearer(KEYS.sandbox)).expect(200);
    expect(res.body).toMatchObject({ object: 'api_key', mode: 'sandbox', status: 'active' });
    expect(res.body.encryption_public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(res.body.key).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(KEYS.sandbox);
  });

  it('carries the organization_id the operator API takes (decisions §11), the same for every key and token of the organization', async () => {
    const ORG_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/;
    const current = async (credential: string) =>
      (await t.http.get('/api-keys/current').set(bearer(credential)).expect(200)).body;
    const mine = await current(KEYS.live);
    expect(mine.organization_id).toMatch(ORG_ID);
    // A key the organization creates, in either mode, and an entity token it issues: the same organization.
    const created = await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ mode: 'sandbox' }).expect(201);
    expect(created.body.organization_id).toBe(mine.organization_id);
    expect((await current(created.body.key)).organization_id).toBe(mine.organization_id);
    const entity = await t.http
      .post('/entities')
      .set(bearer(KEYS.live))
      .send({ type: 'individual', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB' })
      .expect(201);
    const token = (
      await t.http.post('/entity-tokens').set(bearer(KEYS.live)).send({ entity_id: entity.body.id }).expect(201)
    ).body.token;
    expect((await current(token)).organization_id).toBe(mine.organization_id);
    // Another organization's keys carry another id; every bootstrap key is its own organization.
    const others = [await current(KEYS.sandbox), await current(KEYS.other)].map((k) => k.organization_id);
    expect(new Set([mine.organization_id, ...others]).size).toBe(3);
    await t.settle();
    const listed = (await t.http.get('/api-keys').set(bearer(KEYS.live)).expect(200)).body.data as Array<{
      organization_id: string;
    }>;
    expect(listed.every((k) => k.organization_id === mine.organization_id)).toBe(true);
  });

  it('keeps the caller request id when it is sane', async () => {
    const res = await t.http.get('/health').set('x-request-id', 'client-123').expect(200);
    expect(res.headers['x-request-id']).toBe('client-123');
  });

  it('answers malformed JSON with 400 invalid_json and unknown fields with 400 naming them', async () => {
    const bad = await t.http
      .post('/api-keys')
      .set(bearer(KEYS.sandbox))
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    expect(bad.body.code).toBe('invalid_json');
    const unknown = await t.http
      .post('/api-keys')
      .set(bearer(KEYS.sandbox))
      .send({ name: 'x', colour: 'blue' })
      .expect(400);
    expect(unknown.body).toMatchObject({ status: 'error', code: 'validation_error' });
    expect(unknown.body.errors).toEqual([{ field: 'colour', message: 'colour is not an accepted field' }]);
  });

  it('creates, lists, rotates and revokes keys', async () => {
    const created = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'ci' }).expect(201);
    expect(created.body.key).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    const key1 = created.body.key as string;
    await t.http.get('/api-keys/current').set(bearer(key1)).expect(200);

    await t.settle();
    const list = await t.http.get('/api-keys').set(bearer(KEYS.sandbox)).expect(200);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toMatch(/sk_test_|PRIVATE KEY/);
    const other = await t.http.get('/api-keys').set(bearer(KEYS.other)).expect(200);
    expect(other.body.data.map((k: { id: string }) => k.id)).not.toContain(created.body.id);

    const rotated = await t.http.post(`/api-keys/${created.body.id}/rotate`).set(bearer(KEYS.sandbox)).expect(200);
    expect(rotated.body.key).not.toBe(key1);
    expect(rotated.body.encryption_public_key).not.toBe(created.body.encryption_public_key);
    await t.http.get('/api-keys/current').set(bearer(key1)).expect(401);
    await t.http.get('/api-keys/current').set(bearer(rotated.body.key)).expect(200);

    await t.http.delete(`/api-keys/${created.body.id}`).set(bearer(KEYS.sandbox)).expect(200);
    await t.http.get('/api-keys/current').set(bearer(rotated.body.key)).expect(401);
    const again = await t.http.delete(`/api-keys/${created.body.id}`).set(bearer(KEYS.sandbox)).expect(409);
    expect(again.body.code).toBe('api_key_revoked');
  });

  it('lets a live key manage keys of both modes, and a sandbox key only sandbox keys (decisions §1)', async () => {
    const refused = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ mode: 'live' }).expect(403);
    expect(refused.body.code).toBe('forbidden_mode');

    const live = await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ name: 'prod', mode: 'live' }).expect(201);
    expect(live.body.key).toMatch(/^sk_live_/);
    const test = await t.http
      .post('/api-keys')
      .set(bearer(KEYS.live))
      .send({ name: 'ci', mode: 'sandbox' })
      .expect(201);
    expect(test.body).toMatchObject({ mode: 'sandbox', key: expect.stringMatching(/^sk_test_/) });
    await t.http
      .get('/api-keys/current')
      .set(bearer(test.body.key))
      .expect(200, /"mode":"sandbox"/);

    await t.settle();
    const ids = async (key: string) =>
      (await t.http.get('/api-keys').set(bearer(key)).expect(200)).body.data.map((k: { id: string }) => k.id);
    expect(await ids(KEYS.live)).toEqual(expect.arrayContaining([live.body.id, test.body.id]));
    const seenBySandbox = await ids(test.body.key);
    expect(seenBySandbox).toContain(test.body.id);
    expect(seenBySandbox).not.toContain(live.body.id);

    for (const attempt of [
      t.http.post(`/api-keys/${live.body.id}/rotate`),
      t.http.delete(`/api-keys/${live.body.id}`),
    ]) {
      expect((await attempt.set(bearer(test.body.key)).expect(404)).body.code).toBe('api_key_not_found');
    }
    await t.http.get('/api-keys/current').set(bearer(live.body.key)).expect(200);

    const rotated = await t.http.post(`/api-keys/${test.body.id}/rotate`).set(bearer(KEYS.live)).expect(200);
    expect(rotated.body).toMatchObject({ mode: 'sandbox', key: expect.stringMatching(/^sk_test_/) });
    await t.http.delete(`/api-keys/${test.body.id}`).set(bearer(live.body.key)).expect(200);
    await t.http.get('/api-keys/current').set(bearer(rotated.body.key)).expect(401);
  });

  it('refuses to let a key revoke itself with 409 cannot_revoke_self', async () => {
    const created = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({}).expect(201);
    const res = await t.http.delete(`/api-keys/${created.body.id}`).set(bearer(created.body.key)).expect(409);
    expect(res.body.code).toBe('cannot_revoke_self');
    await t.http.get('/api-keys/current').set(bearer(created.body.key)).expect(200);
    await t.http.delete(`/api-keys/${created.body.id}`).set(bearer(KEYS.sandbox)).expect(200);
  });

  it("hides another organization's key as 404", async () => {
    const created = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({}).expect(201);
    const res = await t.http.post(`/api-keys/${created.body.id}/rotate`).set(bearer(KEYS.other)).expect(404);
    expect(res.body.code).toBe('api_key_not_found');
    await t.http.post(`/api-keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV/rotate`).set(bearer(KEYS.other)).expect(404);
  });

  it('validates list limits and cursors', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'cursor=nope']) {
      const res = await t.http.get(`/api-keys?${q}`).set(bearer(KEYS.sandbox)).expect(400);
      expect(res.body.errors[0].field).toBe(q.split('=')[0]);
    }
  });

  it('keeps keys across a restart on the same DATA_DIR', async () => {
    const created = await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ name: 'durable' }).expect(201);
    t = await t.restart();
    await t.http.get('/api-keys/current').set(bearer(created.body.key)).expect(200);
  });
});
