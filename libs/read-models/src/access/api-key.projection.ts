import type { ApiKeyEvent } from '@app/domain/access';
import type { Projection } from '@app/platform/read-store/projection';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

export interface ApiKeyDocument {
  readonly id: string;
  readonly organization_id: string;
  readonly name: string | null;
  readonly mode: 'sandbox' | 'live';
  readonly status: 'active' | 'revoked';
  readonly key_last4: string;
  readonly encryption_public_key: string;
  readonly created: number;
  readonly updated: number;
  [field: string]: unknown;
}

/** The key list: no hash, no private key, only what GET /api-keys shows. */
export const apiKeyProjection: Projection<ApiKeyDocument> = {
  name: 'api-keys',
  collection: 'api_keys',
  // Every filter its list offers, with organization and mode first (see read-index.ts).
  indexes: [['organization_id'], ['organization_id', 'mode']],
  handles: ['ApiKeyCreated', 'ApiKeyRotated', 'ApiKeyRevoked'],
  documentIds: (event) => [String(event.data.api_key_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as ApiKeyEvent;
    switch (event.type) {
      case 'ApiKeyCreated':
        return {
          id: event.data.api_key_id,
          organization_id: event.data.organization_id,
          name: event.data.name,
          mode: event.data.mode,
          status: 'active',
          key_last4: event.data.key_last4,
          encryption_public_key: event.data.encryption_public_key,
          created: event.data.created,
          updated: event.data.created,
        };
      case 'ApiKeyRotated':
        return (
          current && {
            ...current,
            key_last4: event.data.key_last4,
            encryption_public_key: event.data.encryption_public_key,
            updated: event.data.rotated,
          }
        );
      case 'ApiKeyRevoked':
        return current && { ...current, status: 'revoked', updated: event.data.revoked };
      default:
        return current;
    }
  },
};
