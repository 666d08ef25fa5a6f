import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createServer } from 'node:net';
import { MongoClient, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { MONGO_TIMEOUTS, mongoClientOptions } from './mongo-client-options';
import { isStoreUnavailable } from './store-unavailable';

/** A local port nobody listens on: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('isStoreUnavailable: which errors are a store outage (503), not a bug (500)', () => {
  it('a MongoDB client that finds no server within its selection timeout', async () => {
    // The URL's option wins over the default (3 s), so the test waits 300 ms.
    const url = `mongodb://127.0.0.1:${await closedPort()}/?serverSelectionTimeoutMS=300`;
    expect(mongoClientOptions(url)).toEqual({
      heartbeatFrequencyMS: MONGO_TIMEOUTS.heartbeatFrequencyMS,
      connectTimeoutMS: MONGO_TIMEOUTS.connectTimeoutMS,
    });
    const client = new MongoClient(url, mongoClientOptions(url));
    const error = await client
      .db('x')
      .collection('y')
      .findOne({})
      .then(
        () => null,
        (e: unknown) => e,
      );
    await client.close();
    // The timeout it gave up after is the URL's (read from the client, not a stopwatch: issue 32).
    expect(client.options.serverSelectionTimeoutMS).toBe(300);
    expect(error).toBeInstanceOf(MongoServerSelectionError);
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('SQLite out of space or failing I/O (by code, or by message as the writer thread passes it), and ENOSPC, also as a cause', () => {
    expect(isStoreUnavailable(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(
      true,
    );
    expect(isStoreUnavailable(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(true);
    expect(isStoreUnavailable(new Error('database or disk is full'))).toBe(true);
    expect(isStoreUnavailable(new Error('disk I/O error'))).toBe(true);
    expect(
      isStoreUnavailable(
        new Error('document not stored', {
          cause: Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }),
        }),
      ),
    ).toBe(true);
  });

  it('SQLite locked by another connection past the busy timeout (a frozen process sharing the file), as the driver and the writer thread report it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-busy-'));
    const [holder, writer] = [new Database(join(dir, 'x.db')), new Database(join(dir, 'x.db'))];
    try {
      holder.pragma('journal_mode = WAL');
      holder.exec('CREATE TABLE t (x)');
      holder.exec('BEGIN IMMEDIATE');
      writer.pragma('busy_timeout = 0');
      let error: unknown;
      try {
        writer.exec('INSERT INTO t VALUES (1)');
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: 'SQLITE_BUSY', message: 'database is locked' });
      expect(isStoreUnavailable(error)).toBe(true);
      expect(isStoreUnavailable(new Error((error as Error).message))).toBe(true);
    } finally {
      holder.close();
      writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('not an answer from the server, a constraint, or a bug', () => {
    expect(isStoreUnavailable(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(
      false,
    );
    expect(
      isStoreUnavailable(
        Object.assign(new Error('UNIQUE constraint failed: events.id'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }),
      ),
    ).toBe(false);
    expect(isStoreUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isStoreUnavailable(undefined)).toBe(false);
  });
});
