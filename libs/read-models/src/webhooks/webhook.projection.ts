import type { DeliveryEvent, WebhookEvent } from '@app/domain';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { WebhookView } from './webhook.presenter';

export interface WebhookDocument extends WebhookView {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
}

export const NO_DELIVERIES: WebhookView['stats'] = { deliveries_total: 0, deliveries_succeeded: 0, deliveries_failed: 0, last_delivery_at: null, last_response_status: null };

/**
 * The webhook list (GET /entity-webhooks), which the worker also reads to find subscribers, and
 * each webhook's delivery statistics, counted per attempt. Never holds the signing key.
 */
export const webhookProjection: Projection<WebhookDocument> = {
  name: 'webhooks',
  collection: 'webhooks',
  // Every filter its list offers, with organization and mode first (see read-index.ts).
  indexes: [['organization_id', 'mode', 'entity_id']],
  // 1: documents record their mode; older read models are rebuilt once to gain it.
  version: 1,
  handles: ['WebhookCreated', 'WebhookUpdated', 'WebhookDeleted', 'WebhookDeliveryAttempted'],
  documentIds: (event) => [String(event.data.webhook_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as WebhookEvent | DeliveryEvent;
    switch (event.type) {
      case 'WebhookCreated': {
        const { webhook_id, signing_key: _sealed, created, ...settings } = event.data;
        return { ...settings, id: webhook_id, organization_id: recorded.metadata.organization_id, mode: modeOf(recorded.metadata), stats: NO_DELIVERIES, created, updated: created };
      }
      case 'WebhookUpdated': {
        const { signing_key: _sealed, ...changes } = event.data.changes;
        return current && { ...current, ...changes, updated: event.data.updated };
      }
      case 'WebhookDeleted':
        return null;
      case 'WebhookDeliveryAttempted': {
        if (!current) return current;
        const d = event.data;
        const s = current.stats;
        const stats = {
          deliveries_total: s.deliveries_total + 1,
          deliveries_succeeded: s.deliveries_succeeded + (d.status === 'succeeded' ? 1 : 0),
          deliveries_failed: s.deliveries_failed + (d.status === 'failed' ? 1 : 0),
          last_delivery_at: d.completed_at,
          last_response_status: d.response?.status_code ?? null,
        };
        return { ...current, stats };
      }
      default:
        return current;
    }
  },
};
