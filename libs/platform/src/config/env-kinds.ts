/**
 * The kinds of value an environment variable holds: each parses the variable's string to what the
 * apps use, or throws a message that, prefixed by the variable's name (env-schema.ts), says what
 * was expected. Values that may be secrets are never echoed.
 */
export type Kind<T> = (value: string) => T;

const refuse = (message: string): never => {
  throw new Error(message);
};

/** A whole number of `unit` of at least `min` (Number's syntax, as the hand parser had: `1e3` is 1000). */
export const integer =
  (min = 0, unit = ''): Kind<number> =>
  (value) => {
    const n = Number(value);
    if (value.trim() !== '' && Number.isSafeInteger(n) && n >= min) return n;
    const what = unit ? `a whole number of ${unit}` : 'an integer';
    return refuse(`must be ${what}${min === 0 ? ' (0 or more)' : ` of at least ${min}`}, got "${value}"`);
  };

/** A scheduling niceness a process may lower itself to: 0 (as started) to 19 (the lowest). */
export const niceness: Kind<number> = (value) => {
  const n = Number(value);
  if (value.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 19) return n;
  return refuse(`must be a niceness from 0 to 19, got "${value}"`);
};

/** A duration, in whole milliseconds (`*_MS`): `5000`, not `5s`. */
export const duration = (min = 1): Kind<number> => integer(min, 'milliseconds');

export const port: Kind<number> = (value) => {
  const n = integer()(value);
  return n <= 65_535 ? n : refuse(`must be a TCP port (0-65535), got "${value}"`);
};

/** `true`, `1`, `yes` or `false`, `0`, `no`, in any case. */
export const boolean: Kind<boolean> = (value) => {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  return refuse(`must be true or false, got "${value}"`);
};

export const oneOf =
  <T extends string>(values: readonly T[]): Kind<T> =>
  (value) =>
    (values as readonly string[]).includes(value)
      ? (value as T)
      : refuse(`must be one of ${values.join(', ')}, got "${value}"`);

/** Comma-separated items, each trimmed, blanks dropped, each of `item`'s kind. */
export const list =
  <T>(item: Kind<T>): Kind<T[]> =>
  (value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(item);

/** An http(s) URL, without its trailing slash. */
export const httpUrl: Kind<string> = (value) => {
  const parsed = URL.canParse(value) ? new URL(value) : null;
  return parsed && /^https?:$/.test(parsed.protocol)
    ? value.replace(/\/$/, '')
    : refuse(`must be an http or https URL, got "${value}"`);
};

/**
 * A driver's connection string, checked for its scheme only: it may name several hosts (which a
 * URL parser refuses) and carries the password, so the value is never echoed.
 */
export const connectionString =
  (schemes: readonly string[]): Kind<string> =>
  (value) =>
    schemes.some((s) => value.startsWith(`${s}://`))
      ? value
      : refuse(`must be a connection string starting ${schemes.map((s) => `${s}://`).join(' or ')}`);

export const text: Kind<string> = (value) => value;

/** `<payment-type>:<basis points 0-10000>,…`: fees per payment type (the features check the type names when they start). */
export const feeTable: Kind<Record<string, number>> = (value) =>
  Object.fromEntries(
    list((part) => {
      const match = /^([a-z-]+):(\d{1,5})$/.exec(part);
      if (!match || Number(match[2]) > 10_000)
        return refuse(`expected "<payment-type>:<basis points 0-10000>", got "${part}"`);
      return [match[1], Number(match[2])] as const;
    })(value),
  );

/** 32 bytes, base64-encoded (a key). */
export const base64Key: Kind<Buffer> = (value) => {
  const key = Buffer.from(value, 'base64');
  return key.length === 32 ? key : refuse('must be 32 bytes, base64-encoded');
};

export { refuse };
