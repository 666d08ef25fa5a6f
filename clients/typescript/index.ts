/**
 * A typed client of the payments API: openapi-fetch over the types openapi-typescript generated
 * from the API's OpenAPI document (schema.d.ts; `npm run generate:client` regenerates them).
 *
 *   const api = createPaymentsClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.KEY! });
 *   const { data, error } = await api.POST('/accounts', { body: { entity_id, currency: 'USD' } });
 *
 * Every path, parameter, body and answer is typed; `error` is the error envelope.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

/** The API's objects by name: `Schemas['Transfer']`, `Schemas['Error']`… */
export type Schemas = components['schemas'];

export type PaymentsClient = Client<paths>;

export interface PaymentsClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where the API answers, e.g. http://localhost:3000. */
  readonly baseUrl: string;
  /** An API key (sk_test_… or sk_live_…), an entity token (etk_…), or for /admin the operator token. */
  readonly apiKey: string;
  /** Headers sent on every request besides Authorization. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A client that sends `Authorization: Bearer <apiKey>` on every request. */
export function createPaymentsClient({ baseUrl, apiKey, headers, ...options }: PaymentsClientOptions): PaymentsClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });
}

/** A fresh Idempotency-Key (decisions §13): send the same one again to retry a write safely. */
export function idempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
