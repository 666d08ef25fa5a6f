import { retry } from '../retry/retry';

/** An error its driver marks `retriable` (kafkajs does: a broker that just started answers "group coordinator not available" for a few seconds). */
const isRetriable = (error: unknown) => Boolean((error as { retriable?: unknown } | null)?.retriable);

/** Retries work that fails with a retriable error, waiting `delayMs` more each time up to four times it; anything else is thrown as is. */
export function retryRetriable<T>(
  work: () => Promise<T>,
  options: { attempts?: number; delayMs?: number } = {},
): Promise<T> {
  const delayMs = options.delayMs ?? 500;
  return retry(work, {
    attempts: options.attempts ?? 30,
    retryOn: isRetriable,
    delayMs: (attempt) => Math.min(delayMs * attempt, 4 * delayMs),
  });
}
