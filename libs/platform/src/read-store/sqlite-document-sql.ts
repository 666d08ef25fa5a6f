import { assertCollectionName, assertFieldName } from './read-index';
import type { PageQuery } from './read-store.port';
import { fieldColumn } from './sqlite-field-columns';

/** A field of the JSON body, for filters no index declares (checked on the rows an index yields). */
const jsonField = (field: string): string => `json_extract(body, '$.${field}')`;

/** `cx:`: over field columns (sqlite-field-columns.ts); earlier `ix:` indexes were over JSON expressions. */
export const indexName = (collection: string, fields: readonly string[]): string =>
  `cx:${collection}:${fields.join(',')}`;

/**
 * An index over one collection's live documents. Partial (`collection = '<name>' AND deleted = 0`),
 * so it holds only that collection's rows and never a tombstone; the query must therefore spell
 * both terms as literals, which `findSql` does.
 */
export function indexDdl(collection: string, fields: readonly string[]): string {
  assertCollectionName(collection);
  fields.forEach(assertFieldName);
  const columns = [...fields.map(fieldColumn), 'id DESC'].join(', ');
  return `CREATE INDEX IF NOT EXISTS "${indexName(collection, fields)}" ON documents (${columns}) WHERE collection = '${collection}' AND deleted = 0`;
}

export interface FindSql {
  readonly sql: string;
  readonly params: unknown[];
  /** Reading towards newer documents walks ids upwards; the caller flips the page to newest first. */
  readonly towardsNewer: boolean;
}

/**
 * The declared index a query walks: the one with the most fields, all of them filtered on by
 * equality. SQLite's planner, without statistics, prefers the primary key's whole-collection range
 * (it yields the id order for free), so the adapter names the index itself. A range is checked on
 * the rows the index yields, newest first, so a page stops at its limit without sorting anything.
 */
export function chooseIndex(indexes: readonly (readonly string[])[], query: PageQuery): readonly string[] | undefined {
  const filtered = new Set(
    Object.entries(query.filter ?? {}).flatMap(([field, value]) => (value === undefined ? [] : [field])),
  );
  let best: readonly string[] | undefined;
  for (const fields of indexes)
    if (fields.every((f) => filtered.has(f)) && fields.length > (best?.length ?? 0)) best = fields;
  return best;
}

/** `isColumn`: whether a field has its own column (a declared index field), else it is read from the body. */
export function findSql(
  collection: string,
  query: PageQuery,
  indexes: readonly (readonly string[])[] = [],
  isColumn: (field: string) => boolean = () => false,
): FindSql {
  assertCollectionName(collection);
  const index = chooseIndex(indexes, query);
  const fieldSql = (field: string) => (isColumn(field) ? fieldColumn(field) : jsonField(field));
  const where = [`collection = '${collection}'`, 'deleted = 0'];
  const params: unknown[] = [];
  const add = (term: string, value: unknown) => {
    where.push(term);
    params.push(value);
  };
  for (const [field, value] of Object.entries(query.filter ?? {})) {
    if (value === undefined) continue;
    assertFieldName(field);
    if (value === null) where.push(`${fieldSql(field)} IS NULL`);
    else add(`${fieldSql(field)} = ?`, typeof value === 'boolean' ? Number(value) : value);
  }
  const range = query.range;
  if (range) assertFieldName(range.field);
  if (range?.gte !== undefined) add(`${fieldSql(range.field)} >= ?`, range.gte);
  if (range?.lte !== undefined) add(`${fieldSql(range.field)} <= ?`, range.lte);
  if (query.before !== undefined) add('id < ?', query.before);
  if (query.after !== undefined) add('id > ?', query.after);
  const towardsNewer = query.after !== undefined && query.before === undefined;
  const indexed = index ? ` INDEXED BY "${indexName(collection, index)}"` : '';
  const sql = `SELECT body FROM documents${indexed} WHERE ${where.join(' AND ')} ORDER BY id ${towardsNewer ? 'ASC' : 'DESC'} LIMIT ?`;
  return { sql, params: [...params, query.limit + 1], towardsNewer };
}
