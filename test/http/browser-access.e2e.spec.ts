import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

const APP = 'https://app.example.com';

/**
 * Issue 32 item 6: client apps on CORS_ALLOWED_ORIGINS call the API with entity tokens (preflight
 * answered, answers readable); a secret key sent from a page of another origin is refused (403
 * secret_key_in_browser); answers are compressed when asked; GETs carry an ETag and If-None-Match
 * answers 304.
 */
describe('browsers, compression and ETags', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ALLOWED_ORIGINS: `${APP}, https://other.example.com` });
    const entity = await approvedEntity(t);
    token = (await t.http.post('/entity-tokens').set(bearer(KEYS.sandbox)).send({ entity_id: entity }).expect(201)).body
      .token;
  });
  afterAll(() => t.close());

  it('answers an allowed origin’s preflight, and lets it read the answers of an entity token', async () => {
    const preflight = await t.http
      .options('/accounts')
      .set('Origin', APP)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(APP);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization.*Idempotency-Key/);
    const res = await t.http.get('/accounts').set('Origin', APP).set(bearer(token)).expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-expose-headers']).toContain('RateLimit');
  });

  it('gives another origin no CORS headers, and an OPTIONS without Origin is still the API’s own', async () => {
    const preflight = await t.http
      .options('/accounts')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await t.http.get('/accounts').set('Origin', 'https://evil.example').set(bearer(token)).expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const own = await t.http.options('/accounts').expect(204);
    expect(own.headers.allow).toContain('GET');
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a secret key from a page of an origin not allowed, 403 secret_key_in_browser; not without Origin or from the API’s own', async () => {
    const res = await t.http
      .get('/accounts')
      .set('Origin', 'https://evil.example')
      .set(bearer(KEYS.sandbox))
      .expect(403);
    expect(res.body).toMatchObject({ status: 'error', code: 'secret_key_in_browser' });
    await t.http.get('/accounts').set(bearer(KEYS.sandbox)).expect(200);
    // The dashboard's own fetches: Origin is the host the API was asked on.
    await t.http
      .get('/accounts')
      .set('Host', 'payments.example.com')
      .set('Origin', 'https://payments.example.com')
      .set(bearer(KEYS.sandbox))
      .expect(200);
  });

  it('compresses an answer when asked (the OpenAPI document), not otherwise', async () => {
    const gz = await t.http.get('/openapi.json').set('Accept-Encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.openapi).toBe('3.1.0');
    const plain = await t.http.get('/openapi.json').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('gives a GET an ETag, and If-None-Match with it answers 304 without a body', async () => {
    const first = await t.http.get('/accounts').set(bearer(KEYS.sandbox)).expect(200);
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await t.http
      .get('/accounts')
      .set(bearer(KEYS.sandbox))
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    expect(again.text).toBe('');
    await t.http.get('/accounts').set(bearer(KEYS.sandbox)).set('If-None-Match', 'W/"other"').expect(200);
  });
});
