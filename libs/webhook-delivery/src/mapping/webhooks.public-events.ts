import { webhookDecider, webhookStatusAt, type ExistingWebhook, type WebhookEvent } from '@app/domain';
import { NO_DELIVERY_STATS, type DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { presentWebhook } from '@app/read-models/webhooks/webhook.presenter';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { PublicEventTable } from './public-event';

const disabledId = (recorded: RecordedEvent) =>
  (recorded as unknown as Extract<WebhookEvent, { type: 'WebhookDisabled' }>).data.webhook_id;

/**
 * Decisions §15: a webhook disabled for failing is told to the entity's other webhooks as
 * `webhooks.disabled`, `data` the webhook as GET shows it then (its statistics from the delivery
 * store, which is why this table is built with it). Never to the disabled webhook itself, which
 * was still active just before the event.
 */
export const webhookPublicEvents = (deliveries: DeliveryStore): PublicEventTable => ({
  WebhookDisabled: {
    events: ['webhooks.disabled'],
    excludes: (recorded) => [disabledId(recorded)],
    data: async (_name, recorded, stateAt) => {
      const webhook = (await stateAt(webhookDecider)) as ExistingWebhook;
      const stats = (await deliveries.stats([webhook.id])).get(webhook.id) ?? NO_DELIVERY_STATS;
      return presentWebhook({ ...webhook, status: webhookStatusAt(webhook, recorded.metadata.occurred_at), stats });
    },
  },
});
