/** The collection fee schedule (COLLECTION_FEES, decisions §7), provided by the feature module. */
export const COLLECTION_FEES = Symbol('COLLECTION_FEES');
/** Where the 3-D Secure pages are served (PUBLIC_BASE_URL, decisions §0). */
export const THREE_DS_BASE_URL = Symbol('THREE_DS_BASE_URL');
/** How long a 3-D Secure page may be completed after the confirmation. */
export const AUTHENTICATION_TTL_MS = 15 * 60_000;
