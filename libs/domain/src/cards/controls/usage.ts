import type { CardControls, EntryLimits, IndividualControls, MccGroups } from './controls';
import type { Tally, UsageLedger } from './ledger';
import { cycleStart, dayKey } from './windows';

const DAY = 86_400_000;

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
  readonly usage: UsageLedger;
  readonly groups: MccGroups;
  readonly now: number;
}

/** The tallies a window sums: today's, every day of the current cycle's, or the card's life. */
function tallies(ctx: UsageContext, window: Window): Readonly<Record<string, Tally>>[] {
  // A card without a cycle (disposable) has one cycle: its life.
  if (window === 'life' || (window === 'cycle' && !ctx.controls.individual)) return [ctx.usage.lifetime];
  const today = dayKey(ctx.now);
  if (window === 'day') return ctx.usage.days[today] ? [ctx.usage.days[today]] : [];
  const start = cycleStart(ctx.controls.individual, ctx.now);
  return Object.entries(ctx.usage.days)
    .filter(([day]) => Number(day) <= today && cycleStart(ctx.controls.individual, Number(day) * DAY) === start)
    .map(([, t]) => t);
}

type InScope = (mcc: string) => boolean;

function measure(ctx: UsageContext, meter: Meter, inScope: InScope): MeterUsage {
  let used = 0;
  let hold = 0;
  for (const byMcc of tallies(ctx, meter.window)) {
    for (const [mcc, t] of Object.entries(byMcc)) {
      if (!inScope(mcc)) continue;
      used += meter.measure === 'amount' ? t.used_amount : t.used_count;
      hold += meter.measure === 'amount' ? t.hold_amount : t.hold_count;
    }
  }
  return { used, hold };
}

/** `<prefix>_used|_hold|_balance` for each meter; balance is limit − used − hold, 0 without a limit. */
function fields(ctx: UsageContext, meters: Meter[], inScope: InScope): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of meters) {
    const { used, hold } = measure(ctx, m, inScope);
    Object.assign(out, {
      [`${m.prefix}_used`]: used,
      [`${m.prefix}_hold`]: hold,
      [`${m.prefix}_balance`]: m.limit === null ? 0 : m.limit - used - hold,
    });
  }
  return out;
}

const any: InScope = () => true;
const isMcc =
  (code: string): InScope =>
  (mcc) =>
    mcc === code;
const inGroup =
  (ctx: UsageContext, group: string): InScope =>
  (mcc) =>
    (ctx.groups[group] ?? []).includes(mcc);

/** The usage fields of GET /card-details: the card's at the top level, each entry's on the entry. */
export function cardUsage(ctx: UsageContext) {
  return {
    card: fields(ctx, individualMeters(ctx.amount, ctx.controls.individual), any),
    mcc: ctx.controls.mcc.map((e) => fields(ctx, entryMeters(e), isMcc(e.mcc))),
    groups: ctx.controls.groups.map((g) => fields(ctx, entryMeters(g), inGroup(ctx, g.group_name))),
  };
}

function fits(
  ctx: UsageContext,
  meters: Meter[],
  inScope: InScope,
  amount: number,
  perTransaction: number | null,
): boolean {
  if (perTransaction !== null && amount > perTransaction) return false;
  return meters.every((m) => {
    if (m.limit === null) return true;
    const { used, hold } = measure(ctx, m, inScope);
    return used + hold + (m.measure === 'amount' ? amount : 1) <= m.limit;
  });
}

/** Whether a new authorization of `amount` at `mcc` fits every limit that applies to it. */
export function withinLimits(ctx: UsageContext, amount: number, mcc: string): boolean {
  const { controls } = ctx;
  if (
    !fits(
      ctx,
      individualMeters(ctx.amount, controls.individual),
      any,
      amount,
      controls.individual?.transaction_amount_limit ?? null,
    )
  )
    return false;
  const mccOk = controls.mcc
    .filter((e) => e.mcc === mcc)
    .every((e) => fits(ctx, entryMeters(e), isMcc(e.mcc), amount, e.transaction_amount_limit));
  const groupsOk = controls.groups
    .filter((g) => (ctx.groups[g.group_name] ?? []).includes(mcc))
    .every((g) => fits(ctx, entryMeters(g), inGroup(ctx, g.group_name), amount, g.transaction_amount_limit));
  return mccOk && groupsOk;
}

/** An MCC closed on its own entry or through a closed group it belongs to. */
export function mccBlocked(controls: CardControls, groups: MccGroups, mcc: string): boolean {
  if (controls.mcc.some((e) => e.mcc === mcc && !e.open)) return true;
  return controls.groups.some((g) => !g.open && (groups[g.group_name] ?? []).includes(mcc));
}
