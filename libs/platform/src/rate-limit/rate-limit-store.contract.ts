import { clockReading, type Clock } from '../clock';
import type { RateLimitStore, TokenBucket } from './token-bucket';

/** What every bucket store must do, run against each adapter with a clock the test moves. */
export function describeRateLimitStoreContract(
  name: string,
  open: (clock: Clock) => Promise<RateLimitStore>,
  timeout = 10_000,
) {
  describe(`RateLimitStore contract: ${name}`, () => {
    let now = 1_000_000;
    let store: RateLimitStore;
    const bucket: TokenBucket = { capacity: 3, refillPerMs: 3 / 1000 };
    const key = () => `k-${Math.random().toString(36).slice(2)}`;

    beforeAll(async () => {
      store = await open(clockReading(() => now));
    }, timeout);
    afterAll(() => store.close());

    it('spends a full burst, refuses the next with the wait for one token, and refills', async () => {
      const k = key();
      const takes = [];
      for (let i = 0; i < 4; i++) takes.push(await store.take(k, bucket));
      expect(takes.map((t) => [t.allowed, t.tokens])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(takes[3].retryAfterMs).toBe(334);
      now += 334;
      expect((await store.take(k, bucket)).allowed).toBe(true);
      expect((await store.take(k, bucket)).allowed).toBe(false);
      now += 10_000;
      expect(await store.take(k, bucket)).toMatchObject({ allowed: true, tokens: 2 });
    });

    it('keeps keys apart', async () => {
      const [a, b] = [key(), key()];
      for (let i = 0; i < 3; i++) await store.take(a, bucket);
      expect((await store.take(a, bucket)).allowed).toBe(false);
      expect((await store.take(b, bucket)).allowed).toBe(true);
    });

    it('forgets nothing that matters: a bucket idle past its refill starts full', async () => {
      const k = key();
      for (let i = 0; i < 3; i++) await store.take(k, bucket);
      now += 2_000;
      const takes = [];
      for (let i = 0; i < 4; i++) takes.push((await store.take(k, bucket)).allowed);
      expect(takes).toEqual([true, true, true, false]);
    });

    it('never lets concurrent takes spend more than the burst', async () => {
      const k = key();
      const takes = await Promise.all(Array.from({ length: 10 }, () => store.take(k, bucket)));
      expect(takes.filter((t) => t.allowed)).toHaveLength(3);
    });
  });
}
