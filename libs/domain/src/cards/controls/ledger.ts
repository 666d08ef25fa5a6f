import { dayKey } from './windows';

/** What one MCC used and holds: amounts (card currency) and transaction counts. */
export interface Tally {
  readonly used_amount: number;
  readonly used_count: number;
  readonly hold_amount: number;
  readonly hold_count: number;
}

/**
 * The card's usage, aggregated as it happens: per authorization day and MCC (what day and cycle
 * windows sum), and per MCC for the card's life (cumulative limits). A decision reads a few
 * tallies instead of walking every transaction, and an event copies one day, not the history.
 */
export interface UsageLedger {
  readonly days: Readonly<Record<number, Readonly<Record<string, Tally>>>>;
  readonly lifetime: Readonly<Record<string, Tally>>;
}

export const EMPTY_LEDGER: UsageLedger = { days: {}, lifetime: {} };
const ZERO: Tally = { used_amount: 0, used_count: 0, hold_amount: 0, hold_count: 0 };
/** Longer than any cycle (a year): older days can no longer fall in a window, only in `lifetime`. */
const KEPT_DAYS = 400;

type Change = Partial<Record<keyof Tally, number>>;

const add = (t: Tally | undefined, change: Change): Tally => {
  const base = t ?? ZERO;
  return {
    used_amount: base.used_amount + (change.used_amount ?? 0),
    used_count: base.used_count + (change.used_count ?? 0),
    hold_amount: base.hold_amount + (change.hold_amount ?? 0),
    hold_count: base.hold_count + (change.hold_count ?? 0),
  };
};

function apply(ledger: UsageLedger, at: number, mcc: string, change: Change): UsageLedger {
  const key = dayKey(at);
  const day = ledger.days[key] ?? {};
  const days: Record<number, Readonly<Record<string, Tally>>> = {
    ...ledger.days,
    [key]: { ...day, [mcc]: add(day[mcc], change) },
  };
  for (const old of Object.keys(days)) if (Number(old) < key - KEPT_DAYS) delete days[Number(old)];
  return { days, lifetime: { ...ledger.lifetime, [mcc]: add(ledger.lifetime[mcc], change) } };
}

export const holdUsage = (l: UsageLedger, at: number, mcc: string, amount: number) =>
  apply(l, at, mcc, { hold_amount: amount, hold_count: 1 });
export const releaseUsage = (l: UsageLedger, at: number, mcc: string, amount: number) =>
  apply(l, at, mcc, { hold_amount: -amount, hold_count: -1 });
export const captureUsage = (l: UsageLedger, at: number, mcc: string, held: number, captured: number) =>
  apply(l, at, mcc, { hold_amount: -held, hold_count: -1, used_amount: captured, used_count: 1 });
