import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryPolicy {
  /** Attempts in all, the first included; the last one's error is thrown as is. */
  readonly attempts: number;
  /** Whether an attempt's error is worth another attempt; any other is thrown at once. */
  readonly retryOn: (error: unknown) => boolean;
  /** How long to wait after failed attempt `n` (1-based), in ms; none: the next attempt starts at once, with no timer. */
  readonly delayMs?: (attempt: number) => number;
}

/**
 * Runs `work` until it succeeds, its error is not one to retry, or the attempts are spent: the
 * one retry loop of the code (a driver's transient error, an append that met a concurrent writer,
 * a drawn value already taken). Our own: p-retry, the library of choice, is ESM-only since v5,
 * and a command's conflict retry must not wait a timer turn (p-retry's minimum delay).
 */
export async function retry<T>(work: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= policy.attempts || !policy.retryOn(error)) throw error;
      const delay = policy.delayMs?.(attempt) ?? 0;
      if (delay > 0) await sleep(delay);
    }
  }
}
