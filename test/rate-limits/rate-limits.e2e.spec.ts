import { approvedEntity, tokenFor } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Decisions §2: a token bucket per API key and per entity token, 429 with Retry-After over it. */
describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '5' });
  });
  afterAll(() => t.close());

  const current = (key: string) => t.http.get('/api-keys/current').set(bearer(key));
  /**
   * Requests one after another until the first 429: the burst (5) passes, plus the tokens that
   * refilled meanwhile (one per 200 ms, so a slow machine may see a sixth).
   */
  const untilLimited = async (send: () => ReturnType<typeof current>) => {
    let passed = 0;
    for (;;) {
      const res = await send();
      if (res.status !== 200) return { passed, refused: res };
      passed += 1;
      if (passed > 50) throw new Error('never rate limited');
    }
  };

  it('answers 429 rate_limited with Retry-After past the burst, and serves again after retry_after', async () => {
    const { passed, refused: limited } = await untilLimited(() => current(KEYS.other));
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      status: 'error',
      code: 'rate_limited',
      message: expect.stringContaining('Too many requests'),
      errors: [],
      retry_after: 1,
      limit_type: 'requests_per_second',
      current_count: 5,
      limit: 5,
    });
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['x-request-id']).toBeDefined();
    await sleep(limited.body.retry_after * 1000);
    await current(KEYS.other).expect(200);
  });

  it('keeps a bucket per credential: another key and an entity token are not limited by it, GET /health never', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox);
    const token = await tokenFor(t, entity, KEYS.sandbox);
    await sleep(1000);
    expect((await untilLimited(() => current(KEYS.sandbox))).refused.status).toBe(429);
    // The token was issued by the limited key, yet has its own bucket, and so has every other key.
    const byToken = await untilLimited(() => current(token));
    expect([byToken.passed >= 5, byToken.refused.status]).toEqual([true, 429]);
    expect((await current(KEYS.live)).status).toBe(200);
    for (let i = 0; i < 10; i++) await t.http.get('/health').expect(200);
  });

  it('counts across routes, and is off with RATE_LIMIT_PER_SECOND=0', async () => {
    await sleep(1000);
    const routes = ['/api-keys/current', '/api-keys', '/entities', '/accounts'];
    let i = 0;
    const { passed, refused } = await untilLimited(() => t.http.get(routes[i++ % routes.length]).set(bearer(KEYS.live)));
    expect([passed >= 5, refused.status]).toEqual([true, 429]);

    const unlimited = await startTestApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_BURST: '1' });
    try {
      const statuses = await Promise.all(Array.from({ length: 20 }, () => unlimited.http.get('/api-keys/current').set(bearer(KEYS.sandbox))));
      expect(statuses.every((r) => r.status === 200)).toBe(true);
    } finally {
      await unlimited.close();
    }
  });
});
