import Database from 'better-sqlite3';

/**
 * A Map-like table of JSON values by key in a scratch file, for an offline pass that must remember
 * more than memory should hold (the replay's ledger fold: every settled payout may still come back,
 * and a long log has millions). Synchronous, as a Map: callers that fold in order need no await.
 * No journal and no sync: the file is thrown away with its directory at the end of the run.
 */
export class SqliteScratchMap<T> {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    this.stmts = {
      get: this.db.prepare<[string], { value: string }>('SELECT value FROM entries WHERE key = ?'),
      set: this.db.prepare(
        'INSERT INTO entries (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      delete: this.db.prepare('DELETE FROM entries WHERE key = ?'),
    };
  }

  get(key: string): T | undefined {
    const row = this.stmts.get.get(key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: T): void {
    this.stmts.set.run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.stmts.delete.run(key);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
