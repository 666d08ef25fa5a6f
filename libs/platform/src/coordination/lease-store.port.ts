/**
 * Named leases shared by every process of a deployment, so that one of them at a time does a
 * piece of background work (a process manager). A lease is held until its expiry unless renewed;
 * a holder that crashes is replaced once the lease has expired, one that stops releases it.
 * Expiry is measured on the callers' clocks, so replicas' clocks must agree to well within a TTL.
 */
export interface LeaseStore {
  /**
   * Takes `name` for `holder` until now + `ttlMs` when it is free, expired or already the holder's
   * (so acquiring again renews it). True when the holder has it afterwards.
   */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up at once when `holder` has it, so another takes over without waiting. */
  release(name: string, holder: string): Promise<void>;
}

export const LEASE_STORE = Symbol('LEASE_STORE');
