import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Decisions §2: a token bucket per API key, shared by the entity tokens it issued; 429 with Retry-After over it. */
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

  /** Issues an entity token with `key`, waiting out the key's bucket when it is empty (issuing spends it too). */
  const issueToken = async (entity: string, key: string): Promise<string> => {
    for (;;) {
      const res = await t.http.post('/entity-tokens').set(bearer(key)).send({ entity_id: entity });
      if (res.status === 201) return res.body.token;
      if (res.status !== 429) throw new Error(`entity token failed: ${res.status} ${JSON.stringify(res.body)}`);
      await sleep(res.body.retry_after * 1000);
    }
  };

  it('keeps a bucket per API key, which its entity tokens share; other keys are not limited by it, GET /health never', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push(await issueToken(entity, KEYS.sandbox));
    await sleep(1200);

    // A key and four of its tokens, together: one burst (5), plus what refills meanwhile (1 per 200 ms).
    const credentials = [KEYS.sandbox, ...tokens];
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => current(credentials[i % credentials.length])));
    const refill = Math.floor((Date.now() - started) / 200) + 1;
    const passed = answers.filter((r) => r.status === 200).length;
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(5 + refill);
    // Had each token its own bucket, ~5 each would have passed (25 + 5 for the key).
    expect(passed).toBeLessThan(10);

    // The key spent, its tokens are refused at once; and the other way round.
    await sleep(1200);
    expect((await untilLimited(() => current(KEYS.sandbox))).refused.status).toBe(429);
    const byToken = await untilLimited(() => current(tokens[0]));
    expect([byToken.passed <= 1, byToken.refused.status]).toEqual([true, 429]);
    await sleep(1200);
    expect((await untilLimited(() => current(tokens[1]))).passed).toBeGreaterThanOrEqual(5);
    const byKey = await untilLimited(() => current(KEYS.sandbox));
    expect([byKey.passed <= 1, byKey.refused.status]).toEqual([true, 429]);

    // Another key's bucket (and so its tokens') is its own.
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
