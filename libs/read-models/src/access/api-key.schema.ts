import { constant, ms, nullable, obj, oneOfValues, str, type Infer } from '../schema-dsl';

/** The api_key resource: the OpenAPI component `ApiKey`, and the type its presenter returns. */
export const apiKeySchema = obj({
  id: str('key_…'),
  object: constant('api_key'),
  organization_id: str('org_…: the id the operator API takes'),
  name: nullable(str()),
  mode: oneOfValues(['sandbox', 'live']),
  status: oneOfValues(['active', 'revoked']),
  last4: str(),
  encryption_public_key: str('PEM, RSA ≥ 2048, SPKI: encrypts card data (RSA-OAEP, SHA-256)'),
  created: ms(),
  updated: ms(),
});

export type ApiKeyBody = Infer<typeof apiKeySchema>;
