import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Date.parse rolls 2026-02-30 over to March: the date part must read back as itself. */
function isCalendarDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const isMs = (value: string) => /^\d{1,15}$/.test(value);

/**
 * A date field (`date_from`, `date_to`, a window's `since`, `until`) whose shape the DTO's pattern
 * already checked is also a real instant: Date.parse reads it and its date is on the calendar.
 * The one validation pipe refuses it otherwise, with the same message as the pattern.
 */
export const IsInstant = (options: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isInstant',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          (isMs(value) ||
            (!Number.isNaN(Date.parse(isDateOnly(value) ? `${value}T00:00:00Z` : value)) &&
              isCalendarDate(value.slice(0, 10)))),
      },
    },
    options,
  );

/**
 * `date_from` / `date_to` (decisions §2), a value its DTO's IsInstant accepted: inclusive; a date
 * alone covers its whole UTC day, so `date_to=2026-05-01` includes everything created that day.
 */
export function instant(value: string, end: 'from' | 'to'): number {
  if (isMs(value)) return Number(value);
  if (!isDateOnly(value)) return Date.parse(value);
  const ms = Date.parse(`${value}T00:00:00Z`);
  return end === 'to' ? ms + 86_400_000 - 1 : ms;
}

export function createdRange(query: { date_from?: string; date_to?: string }) {
  if (query.date_from === undefined && query.date_to === undefined) return undefined;
  const gte = query.date_from === undefined ? undefined : instant(query.date_from, 'from');
  const lte = query.date_to === undefined ? undefined : instant(query.date_to, 'to');
  return { field: 'created', gte, lte };
}
