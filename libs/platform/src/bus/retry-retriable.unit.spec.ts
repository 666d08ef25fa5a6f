import { retryRetriable } from './retry-retriable';

const retriable = (message: string) => Object.assign(new Error(message), { retriable: true });

describe('retryRetriable', () => {
  it('retries an error marked retriable until the work succeeds', async () => {
    let calls = 0;
    const result = await retryRetriable(
      async () => {
        calls += 1;
        if (calls < 3) throw retriable('coordinator not available');
        return 'joined';
      },
      { delayMs: 1 },
    );
    expect([result, calls]).toEqual(['joined', 3]);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    const failing = retryRetriable(
      async () => {
        calls += 1;
        throw new Error('authorization failed');
      },
      { delayMs: 1 },
    );
    await expect(failing).rejects.toThrow('authorization failed');
    expect(calls).toBe(1);
  });

  it('gives up after the last attempt with that attempt’s error', async () => {
    let calls = 0;
    const failing = retryRetriable(
      async () => {
        calls += 1;
        throw retriable(`attempt ${calls}`);
      },
      { attempts: 4, delayMs: 1 },
    );
    await expect(failing).rejects.toThrow('attempt 4');
    expect(calls).toBe(4);
  });
});
