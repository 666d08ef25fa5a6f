import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import type { Page, PageQuery, ProjectionWrite, ReadDocument, ReadStore } from './read-store.port';

/**
 * Embedded read models in one SQLite file beside the event store. Documents are JSON rows;
 * checkpoints live in the same database and are written in the same transaction as the data.
 * A deleted document stays as a tombstone so its position guard survives a replay.
 */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(file: string) {
    // Read models can always be rebuilt from the log, so a lost tail is replayed, not lost.
    this.db = openSqlite(file, 'rebuildable');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        collection TEXT NOT NULL,
        id         TEXT NOT NULL,
        position   INTEGER NOT NULL,
        deleted    INTEGER NOT NULL DEFAULT 0,
        body       TEXT,
        PRIMARY KEY (collection, id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    `);
    this.stmts = {
      get: this.db.prepare<[string, string], { body: string | null; position: number; deleted: number }>(
        'SELECT body, position, deleted FROM documents WHERE collection = ? AND id = ?',
      ),
      upsert: this.db.prepare(
        `INSERT INTO documents (collection, id, position, deleted, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (collection, id) DO UPDATE SET position = excluded.position, deleted = excluded.deleted, body = excluded.body`,
      ),
      getCheckpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      // MAX: a checkpoint never moves back, whoever saves late (see the CheckpointStore port).
      setCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)',
      ),
    };
  }

  async get<T extends ReadDocument>(collection: string, id: string): Promise<T | null> {
    const row = this.stmts.get.get(collection, id);
    return row && !row.deleted && row.body ? (JSON.parse(row.body) as T) : null;
  }

  async find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>> {
    const where = ['collection = ?', 'deleted = 0'];
    const params: unknown[] = [collection];
    for (const [field, value] of Object.entries(query.filter ?? {})) {
      if (value === undefined) continue;
      assertFieldName(field);
      if (value === null) where.push(`json_extract(body, '$.${field}') IS NULL`);
      else {
        where.push(`json_extract(body, '$.${field}') = ?`);
        params.push(typeof value === 'boolean' ? Number(value) : value);
      }
    }
    if (query.range) {
      assertFieldName(query.range.field);
      if (query.range.gte !== undefined) {
        where.push(`json_extract(body, '$.${query.range.field}') >= ?`);
        params.push(query.range.gte);
      }
      if (query.range.lte !== undefined) {
        where.push(`json_extract(body, '$.${query.range.field}') <= ?`);
        params.push(query.range.lte);
      }
    }
    // Reading towards newer documents walks ids upwards, then flips the page to newest first.
    const towardsNewer = query.after !== undefined && query.before === undefined;
    if (query.before !== undefined) {
      where.push('id < ?');
      params.push(query.before);
    }
    if (query.after !== undefined) {
      where.push('id > ?');
      params.push(query.after);
    }
    const sql = `SELECT body FROM documents WHERE ${where.join(' AND ')} ORDER BY id ${towardsNewer ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = this.statement(sql).all(...params, query.limit + 1) as { body: string }[];
    const hasMore = rows.length > query.limit;
    const items = rows.slice(0, query.limit).map((r) => JSON.parse(r.body) as T);
    return { items: towardsNewer ? items.reverse() : items, hasMore };
  }

  /** Query shapes repeat (a list, its filters), so each is prepared once: preparing costs more than running. */
  private statement(sql: string): Database.Statement {
    let prepared = this.prepared.get(sql);
    if (!prepared) this.prepared.set(sql, (prepared = this.db.prepare(sql)));
    return prepared;
  }

  async apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void> {
    this.db.transaction(() => {
      for (const write of writes) {
        const row = this.stmts.get.get(write.collection, write.id);
        if (row && row.position >= write.position) continue;
        const current = row && !row.deleted && row.body ? (JSON.parse(row.body) as ReadDocument) : null;
        const next = write.evolve(current);
        if (next === current) continue;
        this.stmts.upsert.run(write.collection, write.id, write.position, next ? 0 : 1, next ? JSON.stringify(next) : null);
      }
      for (const [name, position] of Object.entries(checkpoints)) this.stmts.setCheckpoint.run(name, position);
    })();
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
    if (this.db.open) this.db.close();
  }
}

function assertFieldName(field: string): void {
  // Field names are interpolated into a JSON path, never taken from users unchecked.
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/i.test(field)) throw new Error(`invalid field name ${field}`);
}
