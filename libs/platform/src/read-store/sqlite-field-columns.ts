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
  for (const key of field.split('.'))
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return Number(value);
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

/**
 * The fields the declared indexes use, each a real column of `documents` that writes fill from the
 * document itself. Indexing `json_extract(body, …)` made SQLite parse the JSON body once per index
 * expression on every upsert (the projector's main cost, issue 14); a column is read as it is.
 * Every writer fills the columns its collection's indexes hold, including ones another process added
 * since it started (the schema version says so), so no index misses a document.
 */
export class FieldColumns {
  private fields: string[] = [];
  private schemaVersion = -1;
  /** Per collection, the fields its indexes hold (read from the index names, whoever created them). */
  private indexedBy = new Map<string, Set<string>>();
  private byCollection = new Map<string, readonly string[]>();

  constructor(private readonly db: Database.Database) {
    this.refresh();
  }

  get all(): readonly string[] {
    return this.fields;
  }

  /** Whether `collection`'s documents fill the column of `field` (an index of the collection holds it). */
  filled(collection: string, field: string): boolean {
    return this.indexedBy.get(collection)?.has(field) ?? false;
  }

  /** Re-reads the columns when the schema changed (cheap to ask: one pragma). True if it did. */
  refresh(): boolean {
    const version = this.db.pragma('schema_version', { simple: true }) as number;
    if (version === this.schemaVersion) return false;
    this.schemaVersion = version;
    const columns = this.db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('documents')").all();
    this.fields = columns.filter((c) => c.name.startsWith(PREFIX)).map((c) => c.name.slice(PREFIX.length));
    this.indexedBy = indexedFields(this.db);
    this.byCollection.clear();
    return true;
  }

  /**
   * Before an index of `collection` over `fields` is created: adds the columns not held yet and
   * fills them for that collection's stored documents (its writes so far left them NULL, as no
   * index of its read them). Run inside the transaction that creates the index.
   */
  prepareIndex(collection: string, fields: readonly string[]): void {
    for (const field of fields) {
      assertFieldName(field);
      if (!this.fields.includes(field)) {
        this.db.exec(`ALTER TABLE documents ADD COLUMN ${fieldColumn(field)}`);
        this.fields.push(field);
      }
      this.db
        .prepare(
          `UPDATE documents SET ${fieldColumn(field)} = json_extract(body, '$.${field}') WHERE collection = ? AND body IS NOT NULL`,
        )
        .run(collection);
    }
  }

  /** The fields `collection`'s indexes hold, in column order: the columns its documents fill (a tombstone's are NULL). */
  of(collection: string): readonly string[] {
    let fields = this.byCollection.get(collection);
    if (!fields) this.byCollection.set(collection, (fields = this.fields.filter((f) => this.filled(collection, f))));
    return fields;
  }
}

/** `cx:<collection>:<field>,<field>` (sqlite-document-sql.ts names them so) → fields per collection. */
function indexedFields(db: Database.Database): Map<string, Set<string>> {
  const names = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND name LIKE 'cx:%'",
    )
    .all();
  const byCollection = new Map<string, Set<string>>();
  for (const { name } of names) {
    const [, collection, fields] = name.split(':');
    const set = byCollection.get(collection) ?? new Set<string>();
    for (const field of fields.split(',')) set.add(field);
    byCollection.set(collection, set);
  }
  return byCollection;
}
