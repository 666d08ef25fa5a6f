export interface WorkerOptions {
  /** Per attempt; decisions §9 say 10 s. WEBHOOK_TIMEOUT_MS exists so tests can time out quickly. */
  readonly timeoutMs: number;
  /**
   * A claimed attempt is presumed lost with its worker once it outlives its timeout by this much;
   * the delivery is then attempted again (at-least-once). `WEBHOOK_LEASE_MARGIN_MS`, 30 s by default.
   */
  readonly leaseMarginMs: number;
  /** `WEBHOOK_DISABLE_AFTER_MS` (decisions §15): every attempt failing this long disables the webhook; five days by default. */
  readonly disableAfterMs: number;
  /** How often due deliveries are looked for. */
  readonly pollIntervalMs: number;
  readonly consumerGroup: string;
}

export const WORKER_OPTIONS = Symbol('WEBHOOK_WORKER_OPTIONS');

export function loadWorkerOptions(env: NodeJS.ProcessEnv, overrides: Partial<WorkerOptions> = {}): WorkerOptions {
  return {
    timeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, 10_000, 'WEBHOOK_TIMEOUT_MS'),
    leaseMarginMs: positive(env.WEBHOOK_LEASE_MARGIN_MS, 30_000, 'WEBHOOK_LEASE_MARGIN_MS'),
    disableAfterMs: positive(env.WEBHOOK_DISABLE_AFTER_MS, 432_000_000, 'WEBHOOK_DISABLE_AFTER_MS'),
    pollIntervalMs: positive(env.WEBHOOK_SCHEDULER_INTERVAL_MS, 250, 'WEBHOOK_SCHEDULER_INTERVAL_MS'),
    consumerGroup: env.WEBHOOK_CONSUMER_GROUP || 'webhooks',
    ...overrides,
  };
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer of milliseconds, got "${value}"`);
  return n;
}
