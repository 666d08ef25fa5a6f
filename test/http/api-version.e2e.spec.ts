import { CURRENT_API_VERSION } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 32 item 5: a dated API version, as Stripe does. A key is pinned to the version current at
 * its creation (recorded in ApiKeyCreated); a request may name one in Payments-Version; every
 * answer echoes the version it was made under; an unknown one is 400 invalid_api_version.
 */
describe('Payments-Version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is 2026-11-27 today, echoed on every answer: with a key, without one, on an error', async () => {
    expect(CURRENT_API_VERSION).toBe('2026-11-27');
    expect(
      (await t.http.get('/api-keys/current').set(bearer(KEYS.sandbox)).expect(200)).headers['payments-version'],
    ).toBe('2026-11-27');
    expect((await t.http.get('/health/live').expect(200)).headers['payments-version']).toBe('2026-11-27');
    expect((await t.http.get('/api-keys/current').expect(401)).headers['payments-version']).toBe('2026-11-27');
    expect((await t.http.get('/no-such-route').expect(404)).headers['payments-version']).toBe('2026-11-27');
  });

  it('accepts a known version in the header, and refuses an unknown one with 400 invalid_api_version', async () => {
    const ok = await t.http
      .get('/api-keys/current')
      .set(bearer(KEYS.sandbox))
      .set('Payments-Version', '2026-11-27')
      .expect(200);
    expect(ok.headers['payments-version']).toBe('2026-11-27');
    for (const asked of ['2020-01-01', 'latest', '']) {
      const res = await t.http
        .get('/api-keys/current')
        .set(bearer(KEYS.sandbox))
        .set('Payments-Version', asked)
        .expect(400);
      expect(res.body).toMatchObject({
        status: 'error',
        code: 'invalid_api_version',
        errors: [{ field: 'Payments-Version' }],
      });
      expect(res.body.message).toContain('2026-11-27');
      expect(res.headers['payments-version']).toBe('2026-11-27');
    }
    // Refused before anything runs: a write with an unknown version creates nothing.
    await t.http
      .post('/api-keys')
      .set(bearer(KEYS.sandbox))
      .set('Payments-Version', '1999-01-01')
      .send({ name: 'never' })
      .expect(400);
  });

  it('pins a new key to the version it was created under, recorded in its ApiKeyCreated event', async () => {
    const created = await t.http
      .post('/api-keys')
      .set(bearer(KEYS.sandbox))
      .set('Payments-Version', '2026-11-27')
      .send({ name: 'pinned' })
      .expect(201);
    expect(created.headers['payments-version']).toBe('2026-11-27');
    const [event] = await t.app.get<EventStore>(EVENT_STORE).readStream(`api-key-${created.body.id}`);
    expect(event).toMatchObject({ type: 'ApiKeyCreated', data: { api_version: '2026-11-27' } });
    // Its own requests answer under its version without a header.
    const mine = await t.http.get('/api-keys/current').set(bearer(created.body.key)).expect(200);
    expect(mine.headers['payments-version']).toBe('2026-11-27');
  });
});
