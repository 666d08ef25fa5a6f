/**
 * Retries work that fails with an error its driver marks `retriable` (kafkajs does: a broker that
 * just started answers "group coordinator not available" for a few seconds). Anything else, or
 * the last attempt's error, is thrown as is.
 */
export async function retryRetriable<T>(work: () => Promise<T>, options: { attempts?: number; delayMs?: number } = {}): Promise<T> {
  const attempts = options.attempts ?? 30;
  const delayMs = options.delayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !(error as { retriable?: unknown } | null)?.retriable) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs * attempt, 4 * delayMs)));
    }
  }
}
