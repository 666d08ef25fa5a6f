/**
 * A few builders for the JSON Schema 2020-12 (OpenAPI 3.1) objects of the response components, so
 * each resource reads as its fields. Response objects are closed (`additionalProperties: false`)
 * and list every field they always carry as required: a field the code adds, drops or renames
 * fails the e2e suite's response check until the document says so (docs/decisions/infrastructure.md, "OpenAPI").
 */
export type Schema = { [keyword: string]: unknown };

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const str = (description?: string, extra: Schema = {}): Schema => ({ type: 'string', ...(description ? { description } : {}), ...extra });
export const int = (description?: string, extra: Schema = {}): Schema => ({ type: 'integer', ...(description ? { description } : {}), ...extra });
export const num = (description?: string, extra: Schema = {}): Schema => ({ type: 'number', ...(description ? { description } : {}), ...extra });
export const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const oneOfValues = (values: readonly (string | number)[], description?: string): Schema => ({ enum: [...values], ...(description ? { description } : {}) });
export const constant = (value: string | number | boolean, description?: string): Schema => ({ const: value, ...(description ? { description } : {}) });
export const arrayOf = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const stringMap = (description = 'Key-value pairs; values are strings'): Schema => ({ type: 'object', additionalProperties: { type: 'string' }, description });
export const anyObject = (description?: string): Schema => ({ type: 'object', ...(description ? { description } : {}) });

/** Milliseconds since the Unix epoch (most timestamps of the API). */
export const ms = (description = 'Unix time in milliseconds'): Schema => int(description);
/** An amount in the smallest unit of its currency. */
export const amount = (description = 'Amount in the smallest currency unit'): Schema => int(description);
export const currency = (description = 'ISO 4217 code, or USC (USDC) / UST (USDT)'): Schema => str(description, { pattern: '^[A-Z]{3}$' });
export const country2 = (description = 'ISO 3166-1 alpha-2'): Schema => str(description, { pattern: '^[A-Z]{2}$' });
export const isoDateTime = (description?: string): Schema => str(description, { format: 'date-time' });

/** `schema` or JSON null. */
export function nullable(schema: Schema): Schema {
  const { description, ...rest } = schema;
  const doc = description === undefined ? {} : { description };
  if (typeof rest.type === 'string' && !('enum' in rest) && !('const' in rest)) return { ...rest, type: [rest.type, 'null'], ...doc };
  return { anyOf: [rest, { type: 'null' }], ...doc };
}

export interface ObjectOptions {
  /** Fields that may be absent (every other one is required). */
  readonly optional?: readonly string[];
  /** Other fields are allowed (default: closed). */
  readonly open?: boolean;
  readonly description?: string;
}

/** A closed object whose fields are all required unless named in `optional`. */
export function obj(properties: Record<string, Schema>, options: ObjectOptions = {}): Schema {
  const optional = new Set(options.optional ?? []);
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
export const styleAList = (item: Schema, description?: string): Schema =>
  obj({ data: arrayOf(item), meta: ref('StyleAMeta') }, { description: description ?? 'A page of a style A list (limit and cursor), newest first' });

/** Style B list (decisions §2): `{data: [...], pagination: {has_next, has_previous, next_cursor, prev_cursor}}`. */
export const styleBList = (item: Schema, description?: string): Schema =>
  obj({ data: arrayOf(item), pagination: ref('StyleBPagination') }, { description: description ?? 'A page of a style B list (limit, next_cursor, prev_cursor), newest first' });

/** `{data: …}` (cards, card transactions, history, ledger). */
export const dataEnvelope = (data: Schema, description?: string): Schema => obj({ data }, { description });

/** `{status: "success", message, data}` (bank codes, lookups, entity updates, webhook deletion and tests). */
export const successEnvelope = (data: Schema, description?: string): Schema => obj({ status: constant('success'), message: str('What happened, for people'), data }, { description });
