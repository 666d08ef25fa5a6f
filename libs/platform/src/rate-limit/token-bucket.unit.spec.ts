import { takeToken, type TokenBucket } from './token-bucket';

describe('token bucket', () => {
  const bucket: TokenBucket = { capacity: 5, refillPerMs: 5 / 1000 };

  it('starts full, lets a burst of capacity through, then refuses until the next token', () => {
    let tat: number | undefined;
    const outcomes: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      const take = takeToken(bucket, tat, 1000);
      if (take.allowed) tat = take.tat;
      outcomes.push(take.allowed);
    }
    expect(outcomes).toEqual([true, true, true, true, true, false]);
    expect(takeToken(bucket, tat, 1000)).toMatchObject({ allowed: false, tokens: 0, retryAfterMs: 200 });
    expect(takeToken(bucket, tat, 1199).allowed).toBe(false);
    expect(takeToken(bucket, tat, 1200)).toMatchObject({ allowed: true, tokens: 0 });
  });

  it('counts the tokens left, and never holds more than its capacity', () => {
    expect(takeToken(bucket, undefined, 0)).toMatchObject({ allowed: true, tokens: 4 });
    const idle = takeToken(bucket, 1000, 60_000);
    expect(idle).toMatchObject({ allowed: true, tokens: 4, tat: 60_200 });
  });

  it('sustains the refill rate once the burst is spent', () => {
    let tat: number | undefined;
    let allowed = 0;
    for (let now = 0; now < 10_000; now += 10) {
      const take = takeToken(bucket, tat, now);
      if (take.allowed) [tat, allowed] = [take.tat, allowed + 1];
    }
    // 5 at once, then 5 a second for the remaining 10 seconds.
    expect(allowed).toBe(5 + 49);
  });
});
