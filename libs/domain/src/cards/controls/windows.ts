import { WEEKDAYS, type IndividualControls } from './controls';

const DAY = 86_400_000;

/** The UTC day a timestamp falls in: daily limits reset at 00:00 UTC. */
export const dayKey = (at: number): number => Math.floor(at / DAY);

/**
 * The start (ms, UTC) of the billing cycle containing `at`: cycle limits and `amount` reset there.
 * A card without a cycle (disposable) has one cycle for its whole life.
 */
export function cycleStart(
  controls: Pick<IndividualControls, 'billing_cycle' | 'billing_cycle_day'> | null,
  at: number,
): number {
  if (!controls) return 0;
  const date = new Date(dayKey(at) * DAY);
  switch (controls.billing_cycle) {
    case 'Daily':
      return date.getTime();
    case 'Weekly':
      return weeklyStart(date, controls.billing_cycle_day);
    case 'Monthly':
      return monthlyStart(date, Number(controls.billing_cycle_day));
    case 'Yearly':
      return yearlyStart(date, controls.billing_cycle_day);
  }
}

function weeklyStart(date: Date, weekday: string): number {
  const target = Math.max(0, WEEKDAYS.indexOf(weekday as (typeof WEEKDAYS)[number]));
  const back = (date.getUTCDay() - target + 7) % 7;
  return date.getTime() - back * DAY;
}

function monthlyStart(date: Date, day: number): number {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  return date.getUTCDate() >= day ? Date.UTC(y, m, day) : Date.UTC(y, m - 1, day);
}

function yearlyStart(date: Date, monthDay: string): number {
  const [month, day] = monthDay.split('-').map(Number);
  const y = date.getUTCFullYear();
  const thisYear = Date.UTC(y, month - 1, day);
  return date.getTime() >= thisYear ? thisYear : Date.UTC(y - 1, month - 1, day);
}
