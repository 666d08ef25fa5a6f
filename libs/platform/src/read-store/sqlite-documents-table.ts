import type Database from 'better-sqlite3';

/**
 * The documents of every collection, one table. A rowid table: each new row is appended at the end
 * of it, its body inline, and `(collection, id)` is a small key index. It was a WITHOUT ROWID table
 * keyed by `(collection, id)`: a body past about 1 KB (an event-index document, 1.0-1.4 KB) spilled
 * into an overflow page of its own, and documents appended in the middle of the key order (each
 * collection's range, each ledger series) split pages half full, so the file held twice its data
 * (53% of the table's pages unused after 2,500 transfers) and every commit wrote and read more pages.
 */
const create = (name: string, fields: readonly string[] = []) => `CREATE TABLE IF NOT EXISTS ${name} (
  collection TEXT NOT NULL,
  id         TEXT NOT NULL,
  position   INTEGER NOT NULL,
  deleted    INTEGER NOT NULL DEFAULT 0,
  body       TEXT,${fields.map((f) => `\n  ${f},`).join('')}
  PRIMARY KEY (collection, id)
)`;

export function createDocumentsTable(db: Database.Database): void {
  // Immediate: the API and its worker open the file together; one of them moves it, the other sees
  // it moved, waiting as long as the copy takes (a large store's is longer than the usual timeout).
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 600000');
  try {
    db.transaction(() => {
      const table = db
        .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'documents'")
        .get();
      if (table && /WITHOUT\s+ROWID/i.test(table.sql)) moveToRowidTable(db);
      db.exec(
        `${create('documents')}; CREATE INDEX IF NOT EXISTS tombstones ON documents (collection, position) WHERE deleted = 1;`,
      );
    }).immediate();
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

/**
 * A read store of the earlier layout is copied row by row, field columns included, into the new
 * table, once. Its indexes go with the old table: `ensureIndexes`, which every process runs at
 * startup, creates the declared ones again (as after a new index: a large store waits for them once).
 */
function moveToRowidTable(db: Database.Database): void {
  const columns = db
    .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('documents')")
    .all()
    .map((c) => `"${c.name}"`);
  const fields = columns.filter((c) => c.startsWith('"f:'));
  db.exec(create('documents_rowid', fields));
  db.exec(
    `INSERT INTO documents_rowid (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM documents ORDER BY collection, id`,
  );
  db.exec('DROP TABLE documents; ALTER TABLE documents_rowid RENAME TO documents;');
}
