/**
 * A JSON body whose `bigint`s are integers with every digit (decisions §12: ledger sums past 2^53,
 * no rounding, no exponent, no quotes). `JSON.stringify` refuses a bigint and Node 20 has no
 * `JSON.rawJSON`, so each is written as a marked string, then unquoted. The marker starts with
 * U+0000, which JSON.stringify escapes and no ledger id or currency code can hold.
 */
const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

export function exactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v.toString()}` : v)).replace(
    MARKED,
    '$1',
  );
}

/** The content type Express gives `res.json`, for a route that answers `exactJson` text. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
