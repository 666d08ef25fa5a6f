import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

const bad = (field: string) =>
  new DomainException(
    domainError('validation', 'validation_error', `Invalid ${field}`, {
      errors: [{ field, message: `${field} must be an ISO 8601 date or date-time, or ms` }],
    }),
  );

/**
 * `date_from` / `date_to` (decisions §2): inclusive; a date alone covers its whole UTC day, so
 * `date_to=2026-05-01` includes everything created that day.
 */
export function instant(
  value: string,
  field: string,
  end: 'from' | 'to' = field === 'date_to' ? 'to' : 'from',
): number {
  if (/^\d{1,15}$/.test(value)) return Number(value);
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms) || !isCalendarDate(value.slice(0, 10))) throw bad(field);
  return dateOnly && end === 'to' ? ms + 86_400_000 - 1 : ms;
}

/** Date.parse rolls 2026-02-30 over to March: the date part must read back as itself. */
function isCalendarDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

export function createdRange(query: { date_from?: string; date_to?: string }) {
  if (query.date_from === undefined && query.date_to === undefined) return undefined;
  const gte = query.date_from === undefined ? undefined : instant(query.date_from, 'date_from');
  const lte = query.date_to === undefined ? undefined : instant(query.date_to, 'date_to');
  return { field: 'created', gte, lte };
}
