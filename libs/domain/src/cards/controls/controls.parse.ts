import { invalid, type DomainError } from '../../shared';
import {
  BILLING_CYCLES,
  DEFAULT_CYCLE,
  WEEKDAYS,
  type BillingCycle,
  type CardControls,
  type EntryLimits,
  type IndividualControls,
  type MccGroups,
} from './controls';

export interface ControlsInput {
  readonly individual_controls?: Record<string, unknown> | null;
  readonly individual_mcc_controls?: readonly Record<string, unknown>[] | null;
  readonly mcc_group_controls?: readonly Record<string, unknown>[] | null;
}

const LIMIT_FIELDS = [
  'cumulative_amount_limit',
  'cycle_transaction_count',
  'daily_amount_limit',
  'daily_transaction_count',
  'transaction_amount_limit',
] as const;
const INDIVIDUAL_LIMITS = [
  'cycle_transaction_count',
  'daily_amount_limit',
  'daily_transaction_count',
  'transaction_amount_limit',
] as const;

class Refused {
  constructor(readonly error: DomainError) {}
}
const refuse = (field: string, message: string): never => {
  throw new Refused(invalid(field, message));
};

function limit(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    refuse(field, `${field} must be a non-negative integer`);
  return value as number;
}

function onlyKnown(object: Record<string, unknown>, known: readonly string[], path: string): void {
  for (const key of Object.keys(object)) if (!known.includes(key)) refuse(`${path}.${key}`, 'unknown field');
}

function cycleDay(cycle: BillingCycle, day: unknown, path: string): string {
  if (day === undefined || day === null) return cycle === 'Weekly' ? 'Sunday' : cycle === 'Yearly' ? '01-01' : '1';
  const text = String(day);
  if (cycle === 'Weekly' && !WEEKDAYS.includes(text as never))
    refuse(path, `must be a weekday name (${WEEKDAYS.join(', ')})`);
  if (cycle === 'Monthly' && !(/^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= 28))
    refuse(path, 'must be a day of the month, 1-28');
  if (cycle === 'Yearly' && !/^(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])$/.test(text))
    refuse(path, 'must be MM-DD (day 01-28)');
  return cycle === 'Monthly' ? String(Number(text)) : text;
}

function individual(input: Record<string, unknown> | null | undefined): IndividualControls {
  const raw = input ?? {};
  const path = 'individual_controls';
  onlyKnown(raw, ['billing_cycle', 'billing_cycle_day', ...INDIVIDUAL_LIMITS], path);
  const cycle = (raw.billing_cycle ?? DEFAULT_CYCLE.billing_cycle) as BillingCycle;
  if (!BILLING_CYCLES.includes(cycle)) refuse(`${path}.billing_cycle`, `must be one of ${BILLING_CYCLES.join(', ')}`);
  const limits = Object.fromEntries(INDIVIDUAL_LIMITS.map((f) => [f, limit(raw[f], `${path}.${f}`)]));
  return {
    billing_cycle: cycle,
    billing_cycle_day: cycleDay(cycle, raw.billing_cycle_day, `${path}.billing_cycle_day`),
    ...limits,
  } as unknown as IndividualControls;
}

function entryLimits(raw: Record<string, unknown>, path: string): EntryLimits {
  if (raw.open !== undefined && typeof raw.open !== 'boolean') refuse(`${path}.open`, 'open must be a boolean');
  const limits = Object.fromEntries(LIMIT_FIELDS.map((f) => [f, limit(raw[f], `${path}.${f}`)]));
  return { open: raw.open !== false, ...limits } as unknown as EntryLimits;
}

function mccEntries(list: readonly Record<string, unknown>[]) {
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const path = `individual_mcc_controls[${i}]`;
    onlyKnown(raw, ['mcc', 'open', ...LIMIT_FIELDS], path);
    if (typeof raw.mcc !== 'string' || !/^\d{4}$/.test(raw.mcc)) refuse(`${path}.mcc`, 'mcc must be 4 digits');
    if (seen.has(raw.mcc as string)) refuse(`${path}.mcc`, 'each mcc may appear once');
    seen.add(raw.mcc as string);
    return { mcc: raw.mcc as string, ...entryLimits(raw, path) };
  });
}

function groupEntries(list: readonly Record<string, unknown>[], groups: MccGroups) {
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const path = `mcc_group_controls[${i}]`;
    onlyKnown(raw, ['group_name', 'open', ...LIMIT_FIELDS], path);
    const name = raw.group_name;
    if (typeof name !== 'string' || !groups[name])
      refuse(`${path}.group_name`, `group_name must be one of ${Object.keys(groups).join(', ')}`);
    if (seen.has(name as string)) refuse(`${path}.group_name`, 'each group may appear once');
    seen.add(name as string);
    return { group_name: name as string, ...entryLimits(raw, path) };
  });
}

/** Virtual cards: every control checked and normalised, or the first refusal (400 naming the field). */
export function parseControls(input: ControlsInput, groups: MccGroups): CardControls | DomainError {
  try {
    return {
      individual: individual(input.individual_controls),
      mcc: mccEntries(input.individual_mcc_controls ?? []),
      groups: groupEntries(input.mcc_group_controls ?? [], groups),
    };
  } catch (error) {
    if (error instanceof Refused) return error.error;
    throw error;
  }
}
