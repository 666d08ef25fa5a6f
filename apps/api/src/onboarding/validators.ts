import { registerDecorator, type ValidationOptions } from 'class-validator';
import countries from 'i18n-iso-countries';

function rule(name: string, test: (value: unknown) => boolean, message: string, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} ${message}`, ...options },
      validator: { validate: test },
    });
}

/** ISO 3166-1 alpha-2, upper case, and a country that exists (not merely two letters). */
export const IsCountryCode = (options?: ValidationOptions) =>
  rule(
    'isCountryCode',
    (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v) && countries.isValid(v),
    'must be an ISO 3166-1 alpha-2 country code',
    options,
  );

/** YYYY-MM-DD naming a real calendar day (2023-02-30 is refused). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const IsCalendarDate = (options?: ValidationOptions) =>
  rule('isCalendarDate', isCalendarDate, 'must be a real date as YYYY-MM-DD', options);

/** A birth date is a real date in the past. */
export const IsBirthDate = (options?: ValidationOptions) =>
  rule(
    'isBirthDate',
    (v) => isCalendarDate(v) && v >= '1900-01-01' && v < new Date().toISOString().slice(0, 10),
    'must be a real past date as YYYY-MM-DD',
    options,
  );

export const META_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** `meta`: a flat object of string values, bounded like Stripe metadata. */
export const IsStringMap = (options?: ValidationOptions) =>
  rule(
    'isStringMap',
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.keys(v).length <= META_LIMITS.keys &&
      Object.entries(v).every(
        ([k, s]) =>
          k.length >= 1 &&
          k.length <= META_LIMITS.keyLength &&
          typeof s === 'string' &&
          s.length <= META_LIMITS.valueLength,
      ),
    `must be an object of at most ${META_LIMITS.keys} string values (keys up to ${META_LIMITS.keyLength} characters, values up to ${META_LIMITS.valueLength})`,
    options,
  );
