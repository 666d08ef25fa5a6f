import { parseEnv } from '@app/platform/config/env-schema';

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

export function loadWorkerOptions(raw: NodeJS.ProcessEnv, overrides: Partial<WorkerOptions> = {}): WorkerOptions {
  // The schema's kinds and defaults (libs/platform/src/config/env-schema.ts).
  const env = parseEnv(raw);
  return {
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    leaseMarginMs: env.WEBHOOK_LEASE_MARGIN_MS,
    disableAfterMs: env.WEBHOOK_DISABLE_AFTER_MS,
    pollIntervalMs: env.WEBHOOK_SCHEDULER_INTERVAL_MS,
    consumerGroup: env.WEBHOOK_CONSUMER_GROUP,
    ...overrides,
  };
}
