/**
 * Domain errors are values, not exceptions: `decide` returns one instead of events.
 * `kind` decides the HTTP status at the edge; `code` is the stable snake_case code clients match on.
 */
export type DomainErrorKind =
  'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'rule' | 'rate_limited';

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export interface DomainError {
  readonly kind: DomainErrorKind;
  readonly code: string;
  readonly message: string;
  readonly errors?: readonly FieldError[];
  /** Extra body fields for the envelope, e.g. the original resource on a duplicate. */
  readonly details?: Record<string, unknown>;
}

export const domainError = (
  kind: DomainErrorKind,
  code: string,
  message: string,
  extra: { errors?: readonly FieldError[]; details?: Record<string, unknown> } = {},
): DomainError => ({
  kind,
  code,
  message,
  ...extra,
});

export const notFound = (what: string, id: string): DomainError =>
  domainError('not_found', `${what}_not_found`, `No ${what.replace(/_/g, ' ')} with id ${id}`);

export const conflict = (code: string, message: string): DomainError => domainError('conflict', code, message);

export const rule = (code: string, message: string, errors?: readonly FieldError[]): DomainError =>
  domainError('rule', code, message, errors ? { errors } : {});

export const invalid = (field: string, message: string, code = 'validation_error'): DomainError =>
  domainError('validation', code, `Invalid ${field}: ${message}`, { errors: [{ field, message }] });

export function isDomainError(value: unknown): value is DomainError {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as DomainError).kind === 'string' &&
    typeof (value as DomainError).code === 'string'
  );
}
