import type Database from 'better-sqlite3';
import type { Clock } from '../clock';
import { openSqlite } from '../sqlite/open-sqlite';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredAnswer } from './idempotency-store.port';

/** Expired keys are deleted at most this often, by whichever claim comes first after it. */
const SWEEP_EVERY_MS = 60_000;

interface Row {
  fingerprint: string;
  owner: string;
  lease_until: number;
  expires_at: number;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
}

/**
 * Keys in their own file in DATA_DIR (`idempotency.db`), shared by every API process on it.
 * A claim is one `INSERT … ON CONFLICT DO UPDATE … WHERE <claimable>` in an IMMEDIATE transaction
 * (the write lock is taken before anything is read), so two processes never both claim a key;
 * the row it leaves is then read under the same lock to answer replay, reused or in use.
 * Synchronous=NORMAL under WAL, as the rate-limit buckets: a commit survives the process dying
 * (the restart case §13 asks for) without an fsync on the event loop per request; a power loss
 * may forget the last answers (docs/decisions/idempotency.md).
 *
 * Times are ms. `expires_at` is never before `lease_until` (claims and renewals push it), so an
 * expired row is never a live claim and the sweep may delete it blindly.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: Database.Database;
  private readonly claimTx: (claim: IdempotencyClaim, now: number) => ClaimOutcome;
  private readonly renewStmt: Database.Statement<[number, number, string, string, string]>;
  private readonly completeStmt: Database.Statement<[number, string, Buffer, string, string, string]>;
  private readonly releaseStmt: Database.Statement<[string, string, string]>;
  private readonly sweepStmt: Database.Statement<[number]>;
  private lastSweep = -Infinity;

  constructor(
    file: string,
    private readonly clock: Clock,
  ) {
    this.db = openSqlite(file, 'rebuildable');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_keys (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        owner TEXT NOT NULL,
        lease_until INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        status INTEGER,
        headers TEXT,
        body BLOB,
        PRIMARY KEY (scope, key)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
    `);
    const upsert = this.db.prepare<{
      scope: string;
      key: string;
      fingerprint: string;
      owner: string;
      lease: number;
      expires: number;
      now: number;
    }>(`
      INSERT INTO idempotency_keys (scope, key, fingerprint, owner, lease_until, expires_at, status, headers, body)
      VALUES (@scope, @key, @fingerprint, @owner, @lease, @expires, NULL, NULL, NULL)
      ON CONFLICT (scope, key) DO UPDATE SET
        fingerprint = excluded.fingerprint, owner = excluded.owner, lease_until = excluded.lease_until,
        expires_at = excluded.expires_at, status = NULL, headers = NULL, body = NULL
      WHERE idempotency_keys.expires_at <= @now
         OR (idempotency_keys.status IS NULL AND idempotency_keys.lease_until <= @now AND idempotency_keys.fingerprint = excluded.fingerprint)
    `);
    const read = this.db.prepare<[string, string], Row>(
      'SELECT fingerprint, owner, lease_until, expires_at, status, headers, body FROM idempotency_keys WHERE scope = ? AND key = ?',
    );
    this.sweepStmt = this.db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
    const claimTx = this.db.transaction((claim: IdempotencyClaim, now: number): ClaimOutcome => {
      if (now - this.lastSweep >= SWEEP_EVERY_MS) {
        this.sweepStmt.run(now);
        this.lastSweep = now;
      }
      const before = read.get(claim.scope, claim.key);
      const lease = now + claim.leaseMs;
      const { changes } = upsert.run({
        scope: claim.scope,
        key: claim.key,
        fingerprint: claim.fingerprint,
        owner: claim.owner,
        lease,
        expires: Math.max(lease, now + claim.ttlMs),
        now,
      });
      if (changes === 1) return { outcome: 'claimed', takenOver: before !== undefined && before.expires_at > now };
      return classify(before!, claim.fingerprint);
    });
    this.claimTx = (claim, now) => claimTx.immediate(claim, now);
    this.renewStmt = this.db.prepare(
      'UPDATE idempotency_keys SET lease_until = ?, expires_at = MAX(expires_at, ?) WHERE scope = ? AND key = ? AND owner = ? AND status IS NULL',
    );
    this.completeStmt = this.db.prepare(
      'UPDATE idempotency_keys SET status = ?, headers = ?, body = ? WHERE scope = ? AND key = ? AND owner = ? AND status IS NULL',
    );
    this.releaseStmt = this.db.prepare(
      'DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND owner = ? AND status IS NULL',
    );
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    return this.claimTx(claim, this.clock.now());
  }

  async renew(scope: string, key: string, owner: string, leaseMs: number): Promise<boolean> {
    const lease = this.clock.now() + leaseMs;
    return this.renewStmt.run(lease, lease, scope, key, owner).changes === 1;
  }

  async complete(scope: string, key: string, owner: string, answer: StoredAnswer): Promise<boolean> {
    return (
      this.completeStmt.run(answer.status, JSON.stringify(answer.headers), answer.body, scope, key, owner).changes === 1
    );
  }

  async release(scope: string, key: string, owner: string): Promise<void> {
    this.releaseStmt.run(scope, key, owner);
  }

  /** Deletes every expired key now (the claims do it at most once a minute). */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    this.lastSweep = now;
    return this.sweepStmt.run(now).changes;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** What a key that could not be claimed means for this request. */
function classify(row: Row, fingerprint: string): ClaimOutcome {
  if (row.fingerprint !== fingerprint) return { outcome: 'reused' };
  if (row.status === null) return { outcome: 'in_use' };
  return {
    outcome: 'replay',
    answer: { status: row.status, headers: JSON.parse(row.headers ?? '{}'), body: row.body ?? Buffer.alloc(0) },
  };
}
