import type Database from 'better-sqlite3';
import type { ReadDocument } from './read-store.port';
import { fieldColumn, fieldValue, type FieldColumns } from './sqlite-field-columns';

/** A row of `documents` as a batch found it: its body, position, whether it is a tombstone, and its field columns. */
export interface StoredRow {
  readonly body: ReadDocument | null;
  readonly position: number;
  readonly deleted: boolean;
  /** The collection's field columns (`FieldColumns.of`), as stored. */
  readonly values: readonly unknown[];
}

/**
 * Reads and writes one document's row touching only what the write changes. The table holds every
 * collection, with a partial index per declared list shape (about 45): an upsert that sets every
 * column made SQLite weigh each of them, and re-enter the entries of the collection's own, on every
 * write. A new row is inserted with its collection's columns only (the others stay NULL, as no index
 * of its reads them); a stored row is updated with its position, body, and only the columns whose
 * value changed, so SQLite maintains only the indexes over those (none, for most updates: a balance,
 * a ledger figure, a status no index holds).
 */
export class DocumentRows {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly columns: FieldColumns,
  ) {}

  load(collection: string, id: string): StoredRow | null {
    const fields = this.columns.of(collection);
    const sql = `SELECT body, position, deleted${fields.map((f) => `, ${fieldColumn(f)}`).join('')} FROM documents WHERE collection = ? AND id = ?`;
    const row = this.statement(sql, true).get(collection, id) as unknown[] | undefined;
    if (!row) return null;
    const [body, position, deleted, ...values] = row;
    return {
      body: !deleted && body ? (JSON.parse(body as string) as ReadDocument) : null,
      position: position as number,
      deleted: Boolean(deleted),
      values,
    };
  }

  write(collection: string, id: string, position: number, body: ReadDocument | null, stored: StoredRow | null): void {
    const fields = this.columns.of(collection);
    const values = fields.map((f) => (body ? fieldValue(body, f) : null));
    const text = body ? JSON.stringify(body) : null;
    const deleted = body ? 0 : 1;
    if (!stored) {
      const names = ['collection', 'id', 'position', 'deleted', 'body', ...fields.map(fieldColumn)];
      this.statement(`INSERT INTO documents (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(
        collection,
        id,
        position,
        deleted,
        text,
        ...values,
      );
      return;
    }
    const set = ['position', 'body'];
    const params: unknown[] = [position, text];
    const change = (column: string, value: unknown) => {
      set.push(column);
      params.push(value);
    };
    if (Boolean(deleted) !== stored.deleted) change('deleted', deleted);
    fields.forEach((f, i) => {
      if (values[i] !== stored.values[i]) change(fieldColumn(f), values[i]);
    });
    this.statement(`UPDATE documents SET ${set.map((c) => `${c} = ?`).join(', ')} WHERE collection = ? AND id = ?`).run(
      ...params,
      collection,
      id,
    );
  }

  /** Each shape is prepared once (a collection's columns, a set of changed ones): preparing costs more than running. */
  private statement(sql: string, raw = false): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) this.statements.set(sql, (prepared = raw ? this.db.prepare(sql).raw(true) : this.db.prepare(sql)));
    return prepared;
  }
}
