import fc from 'fast-check';
import type { RouteRequest } from '../isolation/routes';

/** A request as the generator sends it: JSON as raw text, so malformed and huge bodies go out as they are. */
export interface BadRequest {
  readonly method: string;
  readonly path: string;
  readonly json?: string;
  readonly multipart?: RouteRequest['multipart'];
  /** Authorization header lines to send instead of `Bearer <credential>` (two of them, another scheme's case). */
  readonly authorization?: readonly string[];
  readonly description: string;
  readonly [fc.toStringMethod]?: () => string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Deep nesting as text: JSON.stringify of a deep object would itself recurse. */
export const deepJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
export const hugeJson = () => JSON.stringify({ padding: 'x'.repeat(1_100_000) });

const oddStrings = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\r\nb',
    'tab\there',
    '\u007f',
    '\u202e',
    '😀'.repeat(3),
    'x'.repeat(10_000),
    '1e2',
    '0x10',
    ' 1',
    'null',
    '-0',
    'NaN',
    '../../etc/passwd',
    "' OR 1=1 --",
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

const extremeNumbers = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    -0,
    1.5,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MIN_SAFE_INTEGER - 2,
    2 ** 31,
    1e-300,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any value a field may wrongly receive; `ids` are other organizations' and entities' ids. */
export const oddValue = (ids: readonly string[]): fc.Arbitrary<Json> =>
  fc.oneof(
    fc.constantFrom<Json>(null, true, false, [], {}, [null], { a: { b: { c: [] } } }),
    oddStrings,
    extremeNumbers,
    fc.constantFrom(...ids),
    fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  );

/** Every path to a value inside a JSON body (`["bank","code"]`). */
export function pathsOf(value: Json, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const own = Object.keys(value).flatMap((key) => pathsOf((value as Record<string, Json>)[key], [...prefix, key]));
  return prefix.length ? [prefix, ...own] : own;
}

export function setAt(body: Json, path: string[], value: Json | undefined): Json {
  if (!path.length) return value ?? null;
  const copy: Record<string, Json> = Array.isArray(body)
    ? ({ ...body } as unknown as Record<string, Json>)
    : { ...(body as Record<string, Json>) };
  const [head, ...rest] = path;
  if (rest.length) copy[head] = setAt(copy[head] ?? {}, rest, value);
  else if (value === undefined) delete copy[head];
  else Object.defineProperty(copy, head, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const ID_SEGMENT = /^[a-z]{2,5}_[0-9A-HJKMNP-TV-Z]{26}$|^[A-Z]{2}$|^org_x$/;
const BROKEN_JSON = ['{', '[]', '"x"', 'null', '{"a":}', '{"a":1,}', "{'a':1}", '\u0000', ''];

/** Everything wrong that can be done to one route's valid request. */
export function badRequests(method: string, base: RouteRequest, ids: readonly string[]): fc.Arbitrary<BadRequest> {
  const body = (base.body ?? {}) as Json;
  const paths = pathsOf(body);
  const containers = [
    [],
    ...paths.filter((p) => typeof pathValue(body, p) === 'object' && pathValue(body, p) !== null),
  ];
  const at = (path: string, json: string | undefined, description: string): BadRequest => ({
    method,
    path,
    json,
    multipart: json === undefined ? base.multipart : undefined,
    description,
    // fast-check prints a counterexample with this: the description, not a megabyte of body.
    [fc.toStringMethod]: () => `${method} ${path.slice(0, 120)} (${description})`,
  });
  const json = base.body || !base.multipart ? JSON.stringify(body) : undefined;
  const options: fc.Arbitrary<BadRequest>[] = [
    fc
      .constantFrom(deepJson(65), deepJson(5000), hugeJson(), ...BROKEN_JSON)
      .map((text) => at(base.path, text, `body replaced by ${text.slice(0, 30)}…`)),
    oddValue(ids).map((value) =>
      at(base.path, JSON.stringify(value), `body replaced by ${JSON.stringify(value).slice(0, 60)}`),
    ),
    fc
      .tuple(
        fc.constantFrom(...containers),
        fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })),
        oddValue(ids),
      )
      .map(([where, key, value]) =>
        at(
          base.path,
          JSON.stringify(setAt(body, [...where, key], value)),
          `extra field ${[...where, key].join('.')} = ${JSON.stringify(value).slice(0, 60)}`,
        ),
      ),
    fc
      .tuple(
        fc.constantFrom(...containers),
        fc.oneof(fc.constantFrom('a', ...paths.map((p) => p[p.length - 1])), fc.string({ maxLength: 6 })),
        oddValue(ids),
      )
      .map(([where, key, value]) =>
        at(base.path, withRepeatedKey(body, where, key, value), `${[...where, key].join('.')} twice`),
      ),
    queryArbitrary(ids).map((query) =>
      at(`${base.path}${base.path.includes('?') ? '&' : '?'}${query}`, json, `query ${query.slice(0, 60)}`),
    ),
  ];
  if (base.multipart) {
    const names = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 8 }));
    const field = fc
      .tuple(fc.constantFrom('', 'link_to_identity'), fc.array(names, { minLength: 1, maxLength: 3 }))
      .map(([root, [first, ...rest]]) =>
        (root ? [root, first, ...rest] : [first, ...rest]).map((n, i) => (i ? `[${n}]` : n)).join(''),
      );
    const multipart = base.multipart;
    options.push(
      fc.tuple(field, oddStrings).map(([name, value]) => ({
        ...at(base.path, undefined, `multipart field ${name}`),
        multipart: { ...multipart, fields: { ...multipart.fields, [name]: value } },
      })),
    );
  }
  if (paths.length) {
    options.push(
      fc
        .tuple(fc.constantFrom(...paths), oddValue(ids))
        .map(([path, value]) =>
          at(
            base.path,
            JSON.stringify(setAt(body, path, value)),
            `${path.join('.')} = ${JSON.stringify(value).slice(0, 60)}`,
          ),
        ),
      fc
        .constantFrom(...paths)
        .map((path) => at(base.path, JSON.stringify(setAt(body, path, undefined)), `${path.join('.')} missing`)),
    );
  }
  const segments = base.path
    .split('?')[0]
    .split('/')
    .filter((segment) => ID_SEGMENT.test(segment));
  if (segments.length) {
    const replacement = fc.oneof(fc.constantFrom(...ids), oddStrings.map(encodeURIComponent));
    options.push(
      fc
        .tuple(fc.constantFrom(...segments), replacement)
        .map(([segment, value]) =>
          at(base.path.replace(segment, value), json, `path ${segment} → ${value.slice(0, 60)}`),
        ),
    );
  }
  return fc.oneof(...options);
}

function queryArbitrary(ids: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(
      'limit',
      'cursor',
      'next_cursor',
      'prev_cursor',
      'entity_id',
      'account_id',
      'status',
      'type',
      'currency',
      ...PROTOTYPE_KEYS,
    ),
    fc.string({ maxLength: 10 }),
  );
  const raw = fc.constantFrom(
    '1e2',
    '0x10',
    '%201',
    '%00',
    '-1',
    '0',
    '101',
    '1.5',
    '99999999999999999999',
    '%E0%A4%A',
    'a%0D%0Ab',
  );
  const value = fc.oneof(
    raw,
    fc.constantFrom(...ids),
    oddStrings.map((v) => encodeURIComponent(v)),
  );
  return fc.tuple(key, value).map(([k, v]) => `${encodeURIComponent(k)}=${v}`);
}

/** The body's JSON text with `key` twice in the object at `where` (the second time set to `value`): JSON.stringify cannot write that. */
export function withRepeatedKey(body: Json, where: string[], key: string, value: Json): string {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body);
  const [head, ...rest] = where;
  const entries = Object.entries(body).map(
    ([k, v]) => `${JSON.stringify(k)}:${head === k ? withRepeatedKey(v, rest, key, value) : JSON.stringify(v)}`,
  );
  if (Array.isArray(body)) return `[${entries.map((entry) => entry.slice(entry.indexOf(':') + 1)).join(',')}]`;
  if (head === undefined)
    entries.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`, `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  return `{${entries.join(',')}}`;
}

function pathValue(body: Json, path: string[]): Json {
  return path.reduce<Json>((value, key) => (value as Record<string, Json>)[key], body);
}
