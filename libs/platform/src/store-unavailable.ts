/**
 * Errors that say a store cannot answer right now, not that the request or the code is wrong
 * (issue 23): the API answers them 503 `service_unavailable` with Retry-After, so a client retries
 * later (under the same Idempotency-Key), and never 500. Only platform code knows the drivers, so
 * the error filter asks here.
 *
 * - MongoDB: no server to select within `serverSelectionTimeoutMS`, a network error or timeout
 *   (including a pool cleared because the monitor lost the server), an operation timeout, a
 *   client that is closed or not connected. Not `MongoServerError`: the server answered.
 * - SQLite: SQLITE_FULL (disk or quota full), SQLITE_IOERR* (a failing disk or fsync) and
 *   SQLITE_BUSY* (another process kept the write lock past the busy timeout: a process sharing the
 *   file is frozen or stuck mid-transaction). The event writer's thread sends back the message
 *   only (`new Error(message)`), so SQLite's fixed texts for those codes are matched as well.
 * - Node's file system: ENOSPC, EDQUOT, EIO (the blob store writing a document).
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (isMongoOutage(e)) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (code === 'SQLITE_FULL' ||
        code.startsWith('SQLITE_IOERR') ||
        code.startsWith('SQLITE_BUSY') ||
        FILE_SYSTEM_CODES.has(code))
    )
      return true;
    if (typeof message === 'string' && SQLITE_MESSAGES.has(message)) return true;
  }
  return false;
}

/**
 * The driver is required here only for an error that names itself `Mongo…` (every error class of
 * the driver does): on the embedded stores it is never loaded (adapters.ts, issue 26's memory).
 */
function isMongoOutage(e: object): boolean {
  const name = (e as { name?: unknown }).name;
  if (typeof name !== 'string' || !name.startsWith('Mongo')) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
  const mongodb = require('mongodb') as typeof import('mongodb');
  const { MongoNetworkError, MongoNotConnectedError, MongoOperationTimeoutError } = mongodb;
  const { MongoServerSelectionError, MongoTopologyClosedError } = mongodb;
  return (
    e instanceof MongoServerSelectionError ||
    e instanceof MongoNetworkError ||
    e instanceof MongoOperationTimeoutError ||
    e instanceof MongoTopologyClosedError ||
    e instanceof MongoNotConnectedError
  );
}

const FILE_SYSTEM_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO']);
/** sqlite3_errstr of SQLITE_FULL, SQLITE_IOERR and SQLITE_BUSY, as better-sqlite3 reports them. */
const SQLITE_MESSAGES = new Set(['database or disk is full', 'disk I/O error', 'database is locked']);
