import type { CardControls, EntryLimits, IndividualControls, MccGroups } from './controls';
import { cycleStart, dayKey } from './windows';

/** One authorization that counts against limits: held (pending) or used (captured). */
export interface Spend {
  readonly id: string;
  /** Card currency, minor units. */
  readonly amount: number;
  readonly mcc: string;
  /** When it was authorized: the day and cycle it counts in, even when captured later. */
  readonly at: number;
  readonly state: 'hold' | 'used';
}

type Window = 'day' | 'cycle' | 'life';

/** One usage counter: `<prefix>_used`, `<prefix>_hold`, `<prefix>_balance`. */
interface Meter {
  readonly prefix: string;
  readonly limit: number | null;
  readonly window: Window;
  readonly measure: 'amount' | 'count';
}

export interface MeterUsage {
  readonly used: number;
  readonly hold: number;
}

function individualMeters(amount: number, c: IndividualControls | null): Meter[] {
  return [
    { prefix: 'amount', limit: amount, window: 'cycle', measure: 'amount' },
    { prefix: 'daily_transaction_count', limit: c?.daily_transaction_count ?? null, window: 'day', measure: 'count' },
    { prefix: 'daily_amount_limit', limit: c?.daily_amount_limit ?? null, window: 'day', measure: 'amount' },
    { prefix: 'cycle_transaction_count', limit: c?.cycle_transaction_count ?? null, window: 'cycle', measure: 'count' },
  ];
}

function entryMeters(e: EntryLimits): Meter[] {
  return [
    { prefix: 'cumulative_amount', limit: e.cumulative_amount_limit, window: 'life', measure: 'amount' },
    { prefix: 'cycle_transaction_count', limit: e.cycle_transaction_count, window: 'cycle', measure: 'count' },
    { prefix: 'daily_amount_limit', limit: e.daily_amount_limit, window: 'day', measure: 'amount' },
    { prefix: 'daily_transaction_count', limit: e.daily_transaction_count, window: 'day', measure: 'count' },
  ];
}

export interface UsageContext {
  readonly amount: number;
  readonly controls: CardControls;
  readonly spends: readonly Spend[];
  readonly groups: MccGroups;
  readonly now: number;
}

function inWindow(ctx: UsageContext, window: Window, at: number): boolean {
  if (window === 'life') return true;
  if (window === 'day') return dayKey(at) === dayKey(ctx.now);
  return cycleStart(ctx.controls.individual, at) === cycleStart(ctx.controls.individual, ctx.now);
}

function measure(ctx: UsageContext, meter: Meter, spends: readonly Spend[]): MeterUsage {
  let used = 0;
  let hold = 0;
  for (const s of spends) {
    if (!inWindow(ctx, meter.window, s.at)) continue;
    const v = meter.measure === 'amount' ? s.amount : 1;
    if (s.state === 'used') used += v;
    else hold += v;
  }
  return { used, hold };
}

/** `<prefix>_used|_hold|_balance` for each meter; balance is limit − used − hold, 0 without a limit. */
function fields(ctx: UsageContext, meters: Meter[], spends: readonly Spend[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of meters) {
    const { used, hold } = measure(ctx, m, spends);
    Object.assign(out, { [`${m.prefix}_used`]: used, [`${m.prefix}_hold`]: hold, [`${m.prefix}_balance`]: m.limit === null ? 0 : m.limit - used - hold });
  }
  return out;
}

const inGroup = (ctx: UsageContext, group: string) => (s: Spend) => (ctx.groups[group] ?? []).includes(s.mcc);

/** The usage fields of GET /card-details: the card's at the top level, each entry's on the entry. */
export function cardUsage(ctx: UsageContext) {
  return {
    card: fields(ctx, individualMeters(ctx.amount, ctx.controls.individual), ctx.spends),
    mcc: ctx.controls.mcc.map((e) => fields(ctx, entryMeters(e), ctx.spends.filter((s) => s.mcc === e.mcc))),
    groups: ctx.controls.groups.map((g) => fields(ctx, entryMeters(g), ctx.spends.filter(inGroup(ctx, g.group_name)))),
  };
}

function fits(ctx: UsageContext, meters: Meter[], spends: readonly Spend[], amount: number, perTransaction: number | null): boolean {
  if (perTransaction !== null && amount > perTransaction) return false;
  return meters.every((m) => {
    if (m.limit === null) return true;
    const { used, hold } = measure(ctx, m, spends);
    return used + hold + (m.measure === 'amount' ? amount : 1) <= m.limit;
  });
}

/** Whether a new authorization of `amount` at `mcc` fits every limit that applies to it. */
export function withinLimits(ctx: UsageContext, amount: number, mcc: string): boolean {
  const { controls } = ctx;
  if (!fits(ctx, individualMeters(ctx.amount, controls.individual), ctx.spends, amount, controls.individual?.transaction_amount_limit ?? null)) return false;
  const mccOk = controls.mcc.filter((e) => e.mcc === mcc).every((e) => fits(ctx, entryMeters(e), ctx.spends.filter((s) => s.mcc === e.mcc), amount, e.transaction_amount_limit));
  const groupsOk = controls.groups
    .filter((g) => (ctx.groups[g.group_name] ?? []).includes(mcc))
    .every((g) => fits(ctx, entryMeters(g), ctx.spends.filter(inGroup(ctx, g.group_name)), amount, g.transaction_amount_limit));
  return mccOk && groupsOk;
}

/** An MCC closed on its own entry or through a closed group it belongs to. */
export function mccBlocked(controls: CardControls, groups: MccGroups, mcc: string): boolean {
  if (controls.mcc.some((e) => e.mcc === mcc && !e.open)) return true;
  return controls.groups.some((g) => !g.open && (groups[g.group_name] ?? []).includes(mcc));
}
