import Database from 'better-sqlite3';
import type { MovementContext, MovementFact } from '@app/domain/ledger';

/**
 * The ledger fold's movement facts (money-movements.ts) in a table of the replay's scratch
 * directory rather than in memory: a settled payout may still come back, so its facts stay for the
 * whole pass, and a long log has millions. Scratch only (no journal, no sync): the file is deleted
 * with the directory at the end of the run.
 */
export class SqliteMovementFacts implements MovementContext {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, fact TEXT NOT NULL) WITHOUT ROWID');
    this.stmts = {
      get: this.db.prepare<[string], { fact: string }>('SELECT fact FROM facts WHERE key = ?'),
      set: this.db.prepare('INSERT INTO facts (key, fact) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET fact = excluded.fact'),
      delete: this.db.prepare('DELETE FROM facts WHERE key = ?'),
    };
  }

  get(key: string): MovementFact | undefined {
    const row = this.stmts.get.get(key);
    return row ? (JSON.parse(row.fact) as MovementFact) : undefined;
  }

  set(key: string, fact: MovementFact): void {
    this.stmts.set.run(key, JSON.stringify(fact));
  }

  delete(key: string): void {
    this.stmts.delete.run(key);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
