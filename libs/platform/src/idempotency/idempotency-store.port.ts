/**
 * The idempotency store (decisions §13), a port of the API beside the event log, never in it: keys,
 * the fingerprint of the request that first used each, and the answer it got. Operational state
 * that expires, so it has its own store (docs/decisions/idempotency.md).
 *
 * A key moves through: absent → running (claimed by one request, under a lease its process renews)
 * → completed (the answer stored) → expired (gone). A running key whose lease ran out (its process
 * died) can be claimed again by a request with the same fingerprint; an expired key by any request.
 * Every adapter decides a claim atomically, so of any number of concurrent requests, across
 * processes, exactly one runs.
 */
export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');

/** The answer a request got, replayed byte for byte to a retry. */
export interface StoredAnswer {
  readonly status: number;
  /** The headers a client needs again (lower-case names), e.g. content-type and location. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface IdempotencyClaim {
  /** Whose keys: an organization and mode (and entity, for entity tokens). */
  readonly scope: string;
  readonly key: string;
  /** Digest of method, path and body: a retry must send the same request. */
  readonly fingerprint: string;
  /** Unique per claim: only this request may renew, complete or release it. */
  readonly owner: string;
  /** How long the claim holds without a renewal. */
  readonly leaseMs: number;
  /** How long the key and its answer are kept, from the claim (a running claim is kept while its lease holds). */
  readonly ttlMs: number;
}

export type ClaimOutcome =
  /** This request runs. `takenOver`: the key was running under a lease that had run out. */
  | { readonly outcome: 'claimed'; readonly takenOver: boolean }
  /** Same key and fingerprint, answered already: send this again, run nothing. */
  | { readonly outcome: 'replay'; readonly answer: StoredAnswer }
  /** Same key, another fingerprint (while running or answered): 422 `idempotency_key_reused`. */
  | { readonly outcome: 'reused' }
  /** Same key and fingerprint, still running under a live lease: 409 `idempotency_key_in_use`. */
  | { readonly outcome: 'in_use' };

export interface IdempotencyStore {
  claim(claim: IdempotencyClaim): Promise<ClaimOutcome>;
  /** Extends the lease of a running claim; false when it is no longer this owner's. */
  renew(scope: string, key: string, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Stores the answer, kept until the key expires; false when the claim was no longer this
   * owner's. The expiry is not moved, so answering rewrites one row and no index.
   */
  complete(scope: string, key: string, owner: string, answer: StoredAnswer): Promise<boolean>;
  /** Forgets a running claim (an answer that is not stored): the next request with the key runs. */
  release(scope: string, key: string, owner: string): Promise<void>;
  close(): Promise<void>;
}
