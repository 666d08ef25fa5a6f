import type { WebhookEvent } from '@app/domain';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { WebhookView } from './webhook.presenter';

export interface WebhookDocument extends Omit<WebhookView, 'stats'> {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
}

/**
 * The webhook list (GET /entity-webhooks), from the webhook streams' configuration events. Never
 * holds the signing key; statistics are the delivery store's (the list's query joins them).
 */
export const webhookProjection: Projection<WebhookDocument> = {
  name: 'webhooks',
  collection: 'webhooks',
  // Every filter its list offers, with organization and mode first (see read-index.ts).
  indexes: [['organization_id', 'mode', 'entity_id']],
  // 1: documents record their mode. 2: no statistics (they moved to the delivery store), so an
  // existing collection, whose documents counted attempts, is rebuilt once without them.
  version: 2,
  // WebhookDisabled and WebhookSecretRotated are new event types: no document before them lacks them, so no rebuild.
  handles: ['WebhookCreated', 'WebhookUpdated', 'WebhookSecretRotated', 'WebhookDisabled', 'WebhookDeleted'],
  documentIds: (event) => [String(event.data.webhook_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as WebhookEvent;
    switch (event.type) {
      case 'WebhookCreated': {
        const { webhook_id, signing_key: _sealed, created, ...settings } = event.data;
        return {
          ...settings,
          id: webhook_id,
          organization_id: recorded.metadata.organization_id,
          mode: modeOf(recorded.metadata),
          created,
          updated: created,
        };
      }
      case 'WebhookUpdated': {
        const { signing_key: _sealed, ...changes } = event.data.changes;
        // Set active again, it is no longer disabled (decisions §15).
        const reason = changes.status === 'active' ? { disabled_reason: null } : {};
        return current && { ...current, ...changes, ...reason, updated: event.data.updated };
      }
      case 'WebhookSecretRotated':
        return current && { ...current, updated: event.data.rotated };
      case 'WebhookDisabled':
        return (
          current && {
            ...current,
            status: 'inactive',
            disabled_reason: event.data.reason,
            updated: event.data.disabled,
          }
        );
      case 'WebhookDeleted':
        return null;
      default:
        return current;
    }
  },
};
