import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeReadStoreContract } from './read-store.contract';
import { SqliteReadStore } from './sqlite-read-store';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describeReadStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
  dirs.push(dir);
  return new SqliteReadStore(join(dir, 'read-models.db'));
});

describe('SqliteReadStore field columns', () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
    dirs.push(dir);
    return join(dir, 'read-models.db');
  };
  const put = (id: string, body: Record<string, unknown>, position: number) => ({
    collection: 'things',
    id,
    position,
    evolve: () => ({ id, ...body }),
  });
  const plan = (store: SqliteReadStore) =>
    store.explainFind('things', { filter: { org: 'o', status: 'open' }, limit: 5 }).join(' | ');

  it('moves a database of the expression-index layout onto columns: old indexes dropped, columns filled from the bodies', async () => {
    const file = fresh();
    const before = new SqliteReadStore(file);
    await before.apply([put('a', { org: 'o', status: 'open' }, 1), put('b', { org: 'o', status: 'done' }, 2)], {});
    // What the previous version created: an index over JSON expressions.
    const raw = new Database(file);
    raw.exec(
      `CREATE INDEX "ix:things:org,status" ON documents (json_extract(body, '$.org'), json_extract(body, '$.status'), id DESC) WHERE collection = 'things' AND deleted = 0`,
    );
    raw.close();
    await before.close();

    const store = new SqliteReadStore(file);
    await store.ensureIndexes([{ collection: 'things', indexes: [['org', 'status']] }]);
    expect(indexNames(file)).toEqual(['cx:things:org,status']);
    expect(plan(store)).toMatch(/SEARCH documents USING INDEX cx:things:org,status \(f:org=\? AND f:status=\?\)/);
    expect(
      (await store.find('things', { filter: { org: 'o', status: 'open' }, limit: 5 })).items.map((d) => d.id),
    ).toEqual(['a']);
    await store.close();
  });

  it('fills a column another process added after it opened the file, so that process finds its writes', async () => {
    const file = fresh();
    const older = new SqliteReadStore(file);
    const newer = new SqliteReadStore(file);
    await newer.ensureIndexes([{ collection: 'things', indexes: [['org', 'status']] }]);
    await older.apply([put('a', { org: 'o', status: 'open' }, 1)], {});
    expect(
      (await newer.find('things', { filter: { org: 'o', status: 'open' }, limit: 5 })).items.map((d) => d.id),
    ).toEqual(['a']);
    await Promise.all([older.close(), newer.close()]);
  });
});

describe('SqliteReadStore field columns across collections', () => {
  it('reads a field from the body for a collection that does not index it, and fills its column once it does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
    dirs.push(dir);
    const store = new SqliteReadStore(join(dir, 'read-models.db'));
    await store.ensureIndexes([{ collection: 'indexed', indexes: [['status']] }]);
    const put = (collection: string, id: string, status: string) => ({
      collection,
      id,
      position: 1,
      evolve: () => ({ id, status }),
    });
    await store.apply([put('indexed', 'a', 'open'), put('plain', 'b', 'open'), put('plain', 'c', 'done')], {});
    expect((await store.find('plain', { filter: { status: 'open' }, limit: 5 })).items.map((d) => d.id)).toEqual(['b']);
    expect((await store.find('indexed', { filter: { status: 'open' }, limit: 5 })).items.map((d) => d.id)).toEqual([
      'a',
    ]);

    // Declared later for the second collection too: its stored documents fill the column first.
    await store.ensureIndexes([
      { collection: 'indexed', indexes: [['status']] },
      { collection: 'plain', indexes: [['status']] },
    ]);
    expect(store.explainFind('plain', { filter: { status: 'open' }, limit: 5 }).join(' ')).toMatch(
      /USING INDEX cx:plain:status/,
    );
    expect((await store.find('plain', { filter: { status: 'open' }, limit: 5 })).items.map((d) => d.id)).toEqual(['b']);
    await store.close();
  });
});

describe('SqliteReadStore batches', () => {
  it('stores a document a batch writes many times once, as the last write left it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
    dirs.push(dir);
    const store = new SqliteReadStore(join(dir, 'read-models.db'));
    const add = (position: number) => ({
      collection: 'tallies',
      id: 't',
      position,
      evolve: (d: Record<string, any> | null) => ({ id: 't', n: (d?.n ?? 0) + position }),
    });
    const write = jest.spyOn((store as unknown as { rows: { write: (...a: unknown[]) => unknown } }).rows, 'write');
    await store.apply([add(1), add(2), add(3), add(2)], {});
    expect(write).toHaveBeenCalledTimes(1);
    expect(await store.get('tallies', 't')).toEqual({ id: 't', n: 6 });
    // The stored position is the last applied write's: a replay of the batch changes nothing.
    await store.apply([add(1), add(2), add(3)], {});
    expect(await store.get('tallies', 't')).toEqual({ id: 't', n: 6 });
    await store.close();
  });
});

describe('SqliteReadStore rows', () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
    dirs.push(dir);
    return join(dir, 'read-models.db');
  };

  it('moves a read store of the WITHOUT ROWID layout into the rowid table once: documents, tombstones and field columns kept, indexes created again', async () => {
    const file = fresh();
    const raw = new Database(file);
    raw.exec(`
      CREATE TABLE documents (collection TEXT NOT NULL, id TEXT NOT NULL, position INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, body TEXT, "f:org" TEXT, PRIMARY KEY (collection, id)) WITHOUT ROWID;
      CREATE INDEX "cx:things:org" ON documents ("f:org", id DESC) WHERE collection = 'things' AND deleted = 0;
      INSERT INTO documents VALUES ('things', 'a', 3, 0, '{"id":"a","org":"o"}', 'o'), ('things', 'b', 4, 1, NULL, NULL);
    `);
    raw.close();

    const store = new SqliteReadStore(file);
    await store.ensureIndexes([{ collection: 'things', indexes: [['org']] }]);
    expect(tableSql(file)).not.toMatch(/WITHOUT ROWID/i);
    expect(indexNames(file)).toEqual(['cx:things:org']);
    expect(store.explainFind('things', { filter: { org: 'o' }, limit: 5 }).join(' ')).toMatch(
      /USING INDEX cx:things:org/,
    );
    expect((await store.find('things', { filter: { org: 'o' }, limit: 5 })).items).toEqual([{ id: 'a', org: 'o' }]);
    // The tombstone's position still guards it, and the live document's its own.
    await store.apply(
      [
        { collection: 'things', id: 'b', position: 4, evolve: () => ({ id: 'b', org: 'o' }) },
        { collection: 'things', id: 'a', position: 2, evolve: () => null },
      ],
      {},
    );
    expect(await store.get('things', 'a')).toEqual({ id: 'a', org: 'o' });
    expect(await store.get('things', 'b')).toBeNull();
    expect(await store.purgeTombstones('things', 4)).toBe(1);
    await store.close();
    // Opened again (the other process of npm start), nothing moves twice.
    const again = new SqliteReadStore(file);
    expect(await again.get('things', 'a')).toEqual({ id: 'a', org: 'o' });
    await again.close();
  });

  it('updates only the field columns a write changed, and a document that leaves a filter leaves its index', async () => {
    const store = new SqliteReadStore(fresh());
    await store.ensureIndexes([{ collection: 'things', indexes: [['org', 'status']] }]);
    const put = (id: string, position: number, body: Record<string, unknown> | null) => ({
      collection: 'things',
      id,
      position,
      evolve: () => (body ? { id, ...body } : null),
    });
    const ids = async (status: string) =>
      (await store.find('things', { filter: { org: 'o', status }, limit: 5 })).items.map((d) => d.id);
    await store.apply([put('a', 1, { org: 'o', status: 'open', n: 1 }), put('b', 2, { org: 'o', status: 'open' })], {});
    await store.apply([put('a', 3, { org: 'o', status: 'open', n: 2 }), put('b', 4, { org: 'o', status: 'done' })], {});
    expect(await ids('open')).toEqual(['a']);
    expect(await ids('done')).toEqual(['b']);
    expect(await store.get('things', 'a')).toEqual({ id: 'a', org: 'o', status: 'open', n: 2 });
    // Deleted, then written again: out of the index as a tombstone, back in with its columns.
    await store.apply([put('b', 5, null)], {});
    expect(await ids('done')).toEqual([]);
    await store.apply([put('b', 6, { org: 'o', status: 'done' })], {});
    expect(await ids('done')).toEqual(['b']);
    await store.close();
  });
});

function tableSql(file: string): string {
  const db = new Database(file, { readonly: true });
  const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'documents'").get() as {
    sql: string;
  };
  db.close();
  return sql;
}

function indexNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const names = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND sql IS NOT NULL AND name != 'tombstones'",
    )
    .all() as { name: string }[];
  db.close();
  return names.map((n) => n.name);
}
