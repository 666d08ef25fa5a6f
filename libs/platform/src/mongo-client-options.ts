import type { MongoClientOptions } from 'mongodb';

/**
 * The timeouts every MongoDB client of the platform uses (issue 23), so that a server that stops
 * answering costs a request a few seconds and a 503 (`isStoreUnavailable`), not the driver's
 * defaults (30 s of server selection, a read on an open socket waited for without end: a write
 * answered 500 after ~40 s with the Mongo-wire server SIGSTOPped).
 *
 * - `serverSelectionTimeoutMS` 3 s: how long an operation waits for a server the monitor sees.
 * - `heartbeatFrequencyMS` 1 s and `connectTimeoutMS` 2 s: the monitor asks the server every
 *   second and gives up on an answer after 2 s (its check, and a connection's handshake). When it
 *   gives up on a timeout, the driver interrupts the operations in flight on that server (the
 *   CMAP "interruptInUseConnections" rule), so a frozen server fails them within ~5 s.
 * - No `socketTimeoutMS`: a slow operation on a live server (an index build on a large
 *   collection) is not cut; a dead server is found by the monitor above instead.
 *
 * Options written in `MONGO_URL` (`?serverSelectionTimeoutMS=…`) win: a deployment tunes them
 * there, without a variable per option.
 */
export const MONGO_TIMEOUTS = {
  serverSelectionTimeoutMS: 3_000,
  heartbeatFrequencyMS: 1_000,
  connectTimeoutMS: 2_000,
} as const;

export function mongoClientOptions(url: string): MongoClientOptions {
  const inUrl = new Set([...queryOf(url).keys()].map((k) => k.toLowerCase()));
  return Object.fromEntries(Object.entries(MONGO_TIMEOUTS).filter(([name]) => !inUrl.has(name.toLowerCase())));
}

/** The query of a mongodb:// or mongodb+srv:// URL (several hosts make it no WHATWG URL). */
function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}
