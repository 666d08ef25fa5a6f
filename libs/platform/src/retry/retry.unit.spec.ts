import { retry } from './retry';

class Transient extends Error {}

describe('retry', () => {
  it('runs the work again on an error to retry, until it succeeds, numbering the attempts', async () => {
    const seen: number[] = [];
    const result = await retry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Transient('busy');
        return 'done';
      },
      { attempts: 5, retryOn: (e) => e instanceof Transient },
    );
    expect([result, seen]).toEqual(['done', [1, 2, 3]]);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    const failing = retry(
      async () => {
        calls += 1;
        throw new Error('refused');
      },
      { attempts: 5, retryOn: (e) => e instanceof Transient },
    );
    await expect(failing).rejects.toThrow('refused');
    expect(calls).toBe(1);
  });

  it('gives up after the last attempt with that attempt’s error, having waited the policy’s delay after each other one', async () => {
    const delays: number[] = [];
    const failing = retry(
      async (attempt) => {
        throw new Transient(`attempt ${attempt}`);
      },
      {
        attempts: 4,
        retryOn: (e) => e instanceof Transient,
        delayMs: (attempt) => (delays.push(attempt), 1),
      },
    );
    await expect(failing).rejects.toThrow('attempt 4');
    expect(delays).toEqual([1, 2, 3]);
  });
});
