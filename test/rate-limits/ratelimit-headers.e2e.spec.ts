import { getStorageToken } from '@nestjs/throttler';
import { clockReading, type Clock } from '@app/platform/clock';
import type { TokenBucketStorage } from '../../apps/api/src/http/rate-limit/token-bucket.storage';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 32 item 4: every metered answer carries draft-ietf-httpapi-ratelimit-headers' RateLimit-Policy
 * and RateLimit, saying the same limit as the 429 body (the per-second rate), never more left
 * than the policy allows; no X-RateLimit-* (which said the burst).
 */
describe('RateLimit headers', () => {
  let t: TestApp;
  // The buckets' clock, moved by the test only: every count is exact.
  const clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' });
    const { store } = t.app.get<TokenBucketStorage>(getStorageToken());
    (store as unknown as { clock: Clock }).clock = clockReading(() => clock);
  });
  afterAll(() => t.close());

  const current = () => t.http.get('/api-keys/current').set(bearer(KEYS.other));

  it('states the policy and what is left on a 200, and the same limit as the 429 body', async () => {
    const first = await current().expect(200);
    expect(first.headers['ratelimit-policy']).toBe('"api_key";q=5;w=1');
    // 9 tokens left of a burst of 10: at most q is promised.
    expect(first.headers['ratelimit']).toBe('"api_key";r=5;t=0');
    expect(Object.keys(first.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);

    const seen: string[] = [];
    let refused;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await current();
      if (res.status === 429) refused = res;
      else seen.push(res.headers['ratelimit']);
    }
    // The bucket empties: r counts down to 0 over the last q requests, each time t seconds to refill q.
    expect(seen.slice(-5)).toEqual([
      '"api_key";r=4;t=1',
      '"api_key";r=3;t=1',
      '"api_key";r=2;t=1',
      '"api_key";r=1;t=1',
      '"api_key";r=0;t=1',
    ]);
    expect(refused!.status).toBe(429);
    expect(refused!.headers['ratelimit-policy']).toBe('"api_key";q=5;w=1');
    expect(refused!.headers['ratelimit']).toBe(`"api_key";r=0;t=${refused!.body.retry_after}`);
    expect(refused!.headers['retry-after']).toBe(String(refused!.body.retry_after));
    expect(refused!.body).toMatchObject({ limit: 5, limit_type: 'requests_per_second' });
  });

  it('is absent where nothing is metered (no credential)', async () => {
    const res = await t.http.get('/health/live').expect(200);
    expect(res.headers['ratelimit']).toBeUndefined();
  });
});
