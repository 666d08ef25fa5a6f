/** The collection fee schedule (COLLECTION_FEES, decisions §7), provided by the feature module. */
export const COLLECTION_FEES = Symbol('COLLECTION_FEES');
/** Where the 3-D Secure pages are served (PUBLIC_BASE_URL, decisions §0). */
export const THREE_DS_BASE_URL = Symbol('THREE_DS_BASE_URL');
/** How long a 3-D Secure page may be completed after the confirmation. */
export const AUTHENTICATION_TTL_MS = 15 * 60_000;
/**
 * How long a claimed acquirer call is its claimant's alone (decisions/collections.md "One acquirer
 * call per step"): the acquirer backstop acts on an action only this long after the event that
 * made it authorizable, and takes over a claim only once it is this old. Longer than any
 * authorization takes; a real acquirer adapter times out well within it.
 */
export const AUTHORIZATION_DEADLINE_MS = 10_000;
/** Optional provider overriding AUTHORIZATION_DEADLINE_MS (tests shorten it). */
export const AUTHORIZATION_DEADLINE = Symbol('AUTHORIZATION_DEADLINE');
