/**
 * Dated API versions (issue 32 item 5, as Stripe does): a key is pinned to the version current
 * when it was created, and a request may name another with `Payments-Version`. One version exists
 * so far; a change that breaks callers adds a date here and keeps answering the older ones.
 */
export const API_VERSIONS = ['2026-11-27'] as const;

export type ApiVersion = (typeof API_VERSIONS)[number];

/** The version new keys are pinned to, and the one answered without a key or a header. */
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1];

/** Keys created before versions existed were created under the first one (their ApiKeyCreated has no api_version). */
export const FIRST_API_VERSION: ApiVersion = API_VERSIONS[0];

export const isApiVersion = (value: string): value is ApiVersion => (API_VERSIONS as readonly string[]).includes(value);
