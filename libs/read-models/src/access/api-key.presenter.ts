import type { ActiveApiKey } from '@app/application/access';
import type { ApiKeyDocument } from './api-key.projection';
import type { ApiKeyBody } from './api-key.schema';

/**
 * The api_key resource, from the folded key or its list document; never the hash or private key.
 * `organization_id` (decisions §11) is the id the operator API's /admin/organizations/{id} routes take.
 * Returns its schema's type (api-key.schema.ts).
 */
export const presentApiKey = (k: ActiveApiKey | ApiKeyDocument): ApiKeyBody => ({
  id: k.id,
  object: 'api_key',
  organization_id: k.organization_id,
  name: k.name,
  mode: k.mode,
  status: k.status,
  last4: k.key_last4,
  encryption_public_key: k.encryption_public_key,
  created: k.created,
  updated: k.updated,
});
