import type Database from 'better-sqlite3';
import { checkpointInBackground } from '../sqlite/background-checkpoints';
import { openSqlite } from '../sqlite/open-sqlite';
import type { CollectionIndexes } from './read-index';
import type { Page, PageQuery, ProjectionWrite, ReadDocument, ReadStore } from './read-store.port';
import { findSql, indexDdl, indexName } from './sqlite-document-sql';
import { DocumentRows, type StoredRow } from './sqlite-document-rows';
import { createDocumentsTable } from './sqlite-documents-table';
import { FieldColumns } from './sqlite-field-columns';

/** One document of a batch being applied: as stored, then as the batch's writes evolve it. */
interface Staged {
  readonly collection: string;
  readonly id: string;
  readonly stored: StoredRow | null;
  position: number;
  body: ReadDocument | null;
  changed: boolean;
}

/**
 * Embedded read models in one SQLite file beside the event store. Documents are JSON rows, with
 * the fields their indexes declare copied into columns; checkpoints live in the same database and
 * are written in the same transaction as the data.
 * A deleted document stays as a tombstone so its position guard survives a replay.
 */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly prepared = new Map<string, Database.Statement>();
  /** The indexes `ensureIndexes` created, per collection: `find` names the one it walks. */
  private declared = new Map<string, readonly (readonly string[])[]>();
  private readonly columns: FieldColumns;
  private readonly rows: DocumentRows;
  /** Started by the first write: a process that only reads (the API) leaves checkpoints to the writer. */
  private releaseCheckpoints: (() => Promise<void>) | null = null;

  constructor(private readonly file: string) {
    // Read models can always be rebuilt from the log, so a lost tail is replayed, not lost.
    this.db = openSqlite(file, 'rebuildable');
    createDocumentsTable(this.db);
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    this.stmts = {
      get: this.db.prepare<[string, string], { body: string | null; position: number; deleted: number }>(
        'SELECT body, position, deleted FROM documents WHERE collection = ? AND id = ?',
      ),
      purge: this.db.prepare('DELETE FROM documents WHERE collection = ? AND deleted = 1 AND position <= ?'),
      getCheckpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      // MAX: a checkpoint never moves back, whoever saves late (see the CheckpointStore port).
      setCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)',
      ),
    };
    this.columns = new FieldColumns(this.db);
    this.rows = new DocumentRows(this.db, this.columns);
  }

  /** Another process (another version) may have changed the field columns or indexes since this one looked. */
  private followSchema(): void {
    this.columns.refresh();
  }

  async get<T extends ReadDocument>(collection: string, id: string): Promise<T | null> {
    const row = this.stmts.get.get(collection, id);
    return row && !row.deleted && row.body ? (JSON.parse(row.body) as T) : null;
  }

  async find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>> {
    this.followSchema();
    const { sql, params, towardsNewer } = findSql(collection, query, this.declared.get(collection), (field) =>
      this.columns.filled(collection, field),
    );
    const rows = this.statement(sql).all(...params) as { body: string }[];
    const hasMore = rows.length > query.limit;
    const items = rows.slice(0, query.limit).map((r) => JSON.parse(r.body) as T);
    return { items: towardsNewer ? items.reverse() : items, hasMore };
  }

  /** SQLite's plan for a `find` (one line per step), for the tests that prove lists never scan. */
  explainFind(collection: string, query: PageQuery): string[] {
    const { sql, params } = findSql(collection, query, this.declared.get(collection), (field) =>
      this.columns.filled(collection, field),
    );
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
  }

  /**
   * Adds a column per declared field, creates the declared indexes and drops every other index of
   * the documents (each costs every write). Synchronous DDL: on a large collection the first start
   * after a new index waits for it, as a migration would.
   */
  async ensureIndexes(declared: readonly CollectionIndexes[]): Promise<void> {
    const wanted = new Map<string, { collection: string; fields: readonly string[] }>();
    for (const { collection, indexes } of declared)
      for (const fields of indexes) wanted.set(indexName(collection, fields), { collection, fields });
    // Immediate: two processes starting together must not both decide from the same old schema.
    this.db
      .transaction(() => {
        this.columns.refresh();
        const existing = this.db
          .prepare<[], { name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND sql IS NOT NULL AND name != 'tombstones'",
          )
          .all();
        for (const { name } of existing) if (!wanted.has(name)) this.db.exec(`DROP INDEX "${name}"`);
        const have = new Set(existing.map((e) => e.name));
        for (const [name, { collection, fields }] of wanted) {
          if (have.has(name)) continue;
          this.columns.prepareIndex(collection, fields);
          this.db.exec(indexDdl(collection, fields));
        }
      })
      .immediate();
    this.declared = new Map(declared.map((d) => [d.collection, d.indexes]));
    this.prepared.clear();
    this.columns.refresh();
  }

  async purgeTombstones(collection: string, upTo: number): Promise<number> {
    return this.stmts.purge.run(collection, upTo).changes;
  }

  /** Query shapes repeat (a list, its filters), so each is prepared once: preparing costs more than running. */
  private statement(sql: string): Database.Statement {
    let prepared = this.prepared.get(sql);
    if (!prepared) this.prepared.set(sql, (prepared = this.db.prepare(sql)));
    return prepared;
  }

  /**
   * A batch often touches one document many times (an account's balance, a transfer's status):
   * each is read and parsed once, evolved in memory through every write of the batch, and stored
   * once, with the position of the last write that changed it.
   */
  async apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void> {
    this.releaseCheckpoints ??= checkpointInBackground(this.db, this.file);
    this.db.transaction(() => {
      this.followSchema();
      const staged = new Map<string, Staged>();
      for (const write of writes) {
        const key = `${write.collection}\u0000${write.id}`;
        let doc = staged.get(key);
        if (!doc) staged.set(key, (doc = this.load(write.collection, write.id)));
        if (doc.position >= write.position) continue;
        const next = write.evolve(doc.body);
        if (next === doc.body) continue;
        Object.assign(doc, { body: next, position: write.position, changed: true });
      }
      for (const doc of staged.values())
        if (doc.changed) this.rows.write(doc.collection, doc.id, doc.position, doc.body, doc.stored);
      for (const [name, position] of Object.entries(checkpoints)) this.stmts.setCheckpoint.run(name, position);
    })();
  }

  private load(collection: string, id: string): Staged {
    const stored = this.rows.load(collection, id);
    return { collection, id, stored, position: stored?.position ?? -1, body: stored?.body ?? null, changed: false };
  }

  async getCheckpoint(name: string): Promise<number> {
    return this.stmts.getCheckpoint.get(name)?.position ?? 0;
  }

  async reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      for (const c of collections) this.db.prepare('DELETE FROM documents WHERE collection = ?').run(c);
      for (const c of checkpoints) this.db.prepare('DELETE FROM checkpoints WHERE name = ?').run(c);
    })();
  }

  async close(): Promise<void> {
    await this.releaseCheckpoints?.();
    if (this.db.open) this.db.close();
  }
}
