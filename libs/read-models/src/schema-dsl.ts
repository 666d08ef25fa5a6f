/**
 * A few builders for the JSON Schema 2020-12 (OpenAPI 3.1) objects of the API's responses, so
 * each resource reads as its fields. Response objects are closed (`additionalProperties: false`)
 * and list every field they always carry as required: a field the code adds, drops or renames
 * fails the e2e suite's response check until the document says so (docs/decisions/infrastructure.md, "OpenAPI").
 *
 * Each builder's result also carries, as a type only, the TypeScript type of the JSON it
 * describes (`Infer<typeof schema>`): a presenter returns that type, so the schema is the one
 * source of a response's shape and the compiler holds the presenter to it.
 */
declare const described: unique symbol;

/** A JSON Schema object. */
export type Schema = { [keyword: string]: unknown };

/** A JSON Schema object that describes JSON of type `T` (a type only, never present at run time). */
export type Typed<T> = Schema & { readonly [described]?: T };

/** The TypeScript type of the JSON a schema describes (`unknown` for an untyped one, a `ref`). */
export type Infer<S> = S extends Typed<infer T> ? T : unknown;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const str = (description?: string, extra: Schema = {}): Typed<string> => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
export const int = (description?: string, extra: Schema = {}): Typed<number> => ({
  type: 'integer',
  ...(description ? { description } : {}),
  ...extra,
});
export const num = (description?: string, extra: Schema = {}): Typed<number> => ({
  type: 'number',
  ...(description ? { description } : {}),
  ...extra,
});
export const bool = (description?: string): Typed<boolean> => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
export const oneOfValues = <V extends string | number>(values: readonly V[], description?: string): Typed<V> => ({
  enum: [...values],
  ...(description ? { description } : {}),
});
export const constant = <V extends string | number | boolean>(value: V, description?: string): Typed<V> => ({
  const: value,
  ...(description ? { description } : {}),
});
export const arrayOf = <T>(items: Typed<T>, description?: string): Typed<readonly T[]> => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
export const stringMap = (
  description = 'Key-value pairs; values are strings',
): Typed<Readonly<Record<string, string>>> => ({
  type: 'object',
  additionalProperties: { type: 'string' },
  description,
});
export const anyObject = (description?: string): Typed<Readonly<Record<string, unknown>>> => ({
  type: 'object',
  ...(description ? { description } : {}),
});

/** Milliseconds since the Unix epoch (most timestamps of the API). */
export const ms = (description = 'Unix time in milliseconds'): Typed<number> => int(description);
/** An amount in the smallest unit of its currency. */
export const amount = (description = 'Amount in the smallest currency unit'): Typed<number> => int(description);
export const currency = (description = 'ISO 4217 code, or USC (USDC) / UST (USDT)'): Typed<string> =>
  str(description, { pattern: '^[A-Z]{3}$' });
export const country2 = (description = 'ISO 3166-1 alpha-2'): Typed<string> =>
  str(description, { pattern: '^[A-Z]{2}$' });
export const isoDateTime = (description?: string): Typed<string> => str(description, { format: 'date-time' });

/** Exactly one of `schemas` (a union), e.g. a profile whose shape follows a type. */
export const oneOf = <S extends readonly Typed<unknown>[]>(
  schemas: S,
  description?: string,
): Typed<Infer<S[number]>> => ({ ...(description ? { description } : {}), oneOf: [...schemas] });

/** `schema` or JSON null. */
export function nullable<T>(schema: Typed<T>): Typed<T | null> {
  const { description, ...rest } = schema;
  const doc = description === undefined ? {} : { description };
  if (typeof rest.type === 'string' && !('enum' in rest) && !('const' in rest))
    return { ...rest, type: [rest.type, 'null'], ...doc };
  return { anyOf: [rest, { type: 'null' }], ...doc };
}

export interface ObjectOptions<K extends string = string> {
  /** Fields that may be absent (every other one is required). */
  readonly optional?: readonly K[];
  /** Other fields are allowed (default: closed). */
  readonly open?: boolean;
  readonly description?: string;
}

/** The object `properties` describe, those named in `K` optional (all of them when `K` is any string: a list built at run time). */
type ObjectOf<P extends Record<string, Schema>, K extends string> = {
  readonly [F in Exclude<keyof P, K>]: Infer<P[F]>;
} & { readonly [F in keyof P & K]?: Infer<P[F]> };

/** A closed object whose fields are all required unless named in `optional`. */
export function obj<P extends Record<string, Schema>, K extends string = never>(
  properties: P,
  options: ObjectOptions<K> = {},
): Typed<ObjectOf<P, K>> {
  const optional = new Set<string>(options.optional ?? []);
  for (const name of optional) if (!(name in properties)) throw new Error(`optional field ${name} is not a property`);
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: options.open ? true : false,
  };
}

/** Style A list (decisions §2): `{data: [...], meta: {pagination: {has_more, next_cursor}}}`. */
export const styleAList = <T>(item: Typed<T>, description?: string) =>
  obj(
    { data: arrayOf(item), meta: ref('StyleAMeta') },
    { description: description ?? 'A page of a style A list (limit and cursor), newest first' },
  );

/** Style B list (decisions §2): `{data: [...], pagination: {has_next, has_previous, next_cursor, prev_cursor}}`. */
export const styleBList = <T>(item: Typed<T>, description?: string) =>
  obj(
    { data: arrayOf(item), pagination: ref('StyleBPagination') },
    { description: description ?? 'A page of a style B list (limit, next_cursor, prev_cursor), newest first' },
  );

/** `{data: …}` (cards, card transactions, history, ledger). */
export const dataEnvelope = <T>(data: Typed<T>, description?: string) => obj({ data }, { description });

/** `{status: "success", message, data}` (bank codes, lookups, entity updates, webhook deletion and tests). */
export const successEnvelope = <T>(data: Typed<T>, description?: string) =>
  obj({ status: constant('success'), message: str('What happened, for people'), data }, { description });
