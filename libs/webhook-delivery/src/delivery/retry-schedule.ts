/**
 * `WEBHOOK_RETRY_SCHEDULE_MS` (decisions §9): entry n is the delay before attempt n + 1, entry 0
 * before the first. After a failed attempt `attempt`, the next one is due `schedule[attempt]` after
 * it completed; past the last entry there is none, and the delivery has failed.
 */
export function nextAttemptAt(schedule: readonly number[], attempt: number, completedAt: number): number | null {
  const delay = schedule[attempt];
  return delay === undefined ? null : completedAt + delay;
}
