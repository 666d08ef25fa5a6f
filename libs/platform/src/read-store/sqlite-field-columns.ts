import type Database from 'better-sqlite3';
import { assertFieldName } from './read-index';
import type { ReadDocument } from './read-store.port';

const PREFIX = 'f:';

/** The column that holds a declared index field of every document (quoted: paths contain dots). */
export const fieldColumn = (field: string): string => `"${PREFIX}${field}"`;

/**
 * A field's value as its column stores it: what SQLite's `json_extract` would answer for the same
 * body (booleans as 1/0, objects as JSON text, absent as NULL), so a column backfilled from stored
 * bodies and one written from documents agree.
 */
export function fieldValue(document: ReadDocument, field: string): unknown {
  let value: unknown = document;
  for (const key of field.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return Number(value);
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

/**
 * The fields the declared indexes use, each a real column of `documents` that writes fill from the
 * document itself. Indexing `json_extract(body, …)` made SQLite parse the JSON body once per index
 * expression on every upsert (the projector's main cost, issue 14); a column is read as it is.
 * Every writer fills every column the table has, including ones another process added since it
 * started (the schema version says so), so no index misses a document.
 */
export class FieldColumns {
  private fields: string[] = [];
  private schemaVersion = -1;

  constructor(private readonly db: Database.Database) {
    this.refresh();
  }

  get all(): readonly string[] {
    return this.fields;
  }

  has(field: string): boolean {
    return this.fields.includes(field);
  }

  /** Re-reads the columns when the schema changed (cheap to ask: one pragma). True if it did. */
  refresh(): boolean {
    const version = this.db.pragma('schema_version', { simple: true }) as number;
    if (version === this.schemaVersion) return false;
    this.schemaVersion = version;
    const columns = this.db.prepare<[], { name: string }>('SELECT name FROM pragma_table_info(\'documents\')').all();
    this.fields = columns.filter((c) => c.name.startsWith(PREFIX)).map((c) => c.name.slice(PREFIX.length));
    return true;
  }

  /** Adds a column per field not held yet, filled from the bodies already stored. Run inside a transaction. */
  add(fields: Iterable<string>): void {
    for (const field of new Set(fields)) {
      assertFieldName(field);
      if (this.fields.includes(field)) continue;
      this.db.exec(`ALTER TABLE documents ADD COLUMN ${fieldColumn(field)}`);
      this.db.exec(`UPDATE documents SET ${fieldColumn(field)} = json_extract(body, '$.${field}') WHERE body IS NOT NULL`);
      this.fields.push(field);
    }
  }

  /** The values of every column for one document (all NULL for a tombstone), in `all` order. */
  valuesOf(document: ReadDocument | null): unknown[] {
    return this.fields.map((field) => (document ? fieldValue(document, field) : null));
  }
}
