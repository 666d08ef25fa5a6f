import { getStorageToken } from '@nestjs/throttler';
import { clockReading, type Clock } from '@app/platform/clock';
import type { TokenBucketStorage } from '../../apps/api/src/http/rate-limit/token-bucket.storage';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

/** Decisions §2: a token bucket per API key, shared by the entity tokens it issued; 429 with Retry-After over it. */
describe('rate limits', () => {
  let t: TestApp;
  /**
   * The buckets' clock, which only the test moves (issue 32): a bucket refills when the test says
   * time passed, never because the machine was slow, so every count below is exact.
   */
  let clock = Date.now();
  const wait = (ms: number) => (clock += ms);
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '5' });
    const { store } = t.app.get<TokenBucketStorage>(getStorageToken());
    (store as unknown as { clock: Clock }).clock = clockReading(() => clock);
  });
  afterAll(() => t.close());

  const current = (key: string) => t.http.get('/api-keys/current').set(bearer(key));
  /** Requests one after another until the first 429: the burst (5) passes, nothing refills meanwhile. */
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
    expect(passed).toBe(5);
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
    await current(KEYS.other).expect(429);
    wait(limited.body.retry_after * 1000);
    await current(KEYS.other).expect(200);
  });

  /** Issues an entity token with `key`, waiting out the key's bucket when it is empty (issuing spends it too). */
  const issueToken = async (entity: string, key: string): Promise<string> => {
    for (;;) {
      const res = await t.http.post('/entity-tokens').set(bearer(key)).send({ entity_id: entity });
      if (res.status === 201) return res.body.token;
      if (res.status !== 429) throw new Error(`entity token failed: ${res.status} ${JSON.stringify(res.body)}`);
      wait(res.body.retry_after * 1000);
    }
  };

  it('keeps a bucket per API key, which its entity tokens share; other keys are not limited by it, GET /health never', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push(await issueToken(entity, KEYS.sandbox));
    wait(1200);

    // A key and four of its tokens, together: one burst (5), the clock standing still.
    const credentials = [KEYS.sandbox, ...tokens];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => current(credentials[i % credentials.length])),
    );
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    // Had each token its own bucket, 5 each would have passed (25 + 5 for the key).
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);

    // The key spent, its tokens are refused at once; and the other way round.
    wait(1200);
    expect((await untilLimited(() => current(KEYS.sandbox))).refused.status).toBe(429);
    const byToken = await untilLimited(() => current(tokens[0]));
    expect([byToken.passed, byToken.refused.status]).toEqual([0, 429]);
    wait(1200);
    expect((await untilLimited(() => current(tokens[1]))).passed).toBe(5);
    const byKey = await untilLimited(() => current(KEYS.sandbox));
    expect([byKey.passed, byKey.refused.status]).toEqual([0, 429]);

    // Another key's bucket (and so its tokens') is its own.
    expect((await current(KEYS.live)).status).toBe(200);
    for (let i = 0; i < 10; i++) await t.http.get('/health').expect(200);
  });

  it('counts across routes, and is off with RATE_LIMIT_PER_SECOND=0', async () => {
    wait(1000);
    const routes = ['/api-keys/current', '/api-keys', '/entities', '/accounts'];
    let i = 0;
    const { passed, refused } = await untilLimited(() =>
      t.http.get(routes[i++ % routes.length]).set(bearer(KEYS.live)),
    );
    expect([passed, refused.status]).toEqual([5, 429]);

    const unlimited = await startTestApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_BURST: '1' });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => unlimited.http.get('/api-keys/current').set(bearer(KEYS.sandbox))),
      );
      expect(statuses.every((r) => r.status === 200)).toBe(true);
    } finally {
      await unlimited.close();
    }
  });
});
