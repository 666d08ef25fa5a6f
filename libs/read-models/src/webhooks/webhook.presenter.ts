import type { ExistingWebhook } from '@app/domain';
import type { WebhookBody } from './webhook.schema';

export interface WebhookStats {
  readonly deliveries_total: number;
  readonly deliveries_succeeded: number;
  readonly deliveries_failed: number;
  readonly last_delivery_at: number | null;
  readonly last_response_status: number | null;
}

/** A webhook nothing was attempted for yet. */
export const NO_DELIVERIES: WebhookStats = {
  deliveries_total: 0,
  deliveries_succeeded: 0,
  deliveries_failed: 0,
  last_delivery_at: null,
  last_response_status: null,
};

export type WebhookView = Omit<ExistingWebhook, 'signing_key'> & { readonly stats: WebhookStats };

/**
 * The webhook object (decisions §9); its status as the command or query resolved it at its clock
 * (`inactive` once `expires_at` has passed: webhookAt, so this reads no clock); `disabled_reason`
 * says why the platform turned it inactive (decisions §15), null otherwise. Returns its schema's type
 * (webhook.schema.ts).
 */
export const presentWebhook = (w: WebhookView): WebhookBody => ({
  id: w.id,
  object: 'webhook',
  entity_id: w.entity_id,
  url: w.url,
  expires_in: w.expires_in,
  expires_at: w.expires_at,
  enabled_events: w.enabled_events,
  description: w.description,
  tags: w.tags,
  status: w.status,
  disabled_reason: w.disabled_reason ?? null,
  // Named, not spread: the store's counters carry more than the object shows (failing_since).
  stats: {
    deliveries_total: w.stats.deliveries_total,
    deliveries_succeeded: w.stats.deliveries_succeeded,
    deliveries_failed: w.stats.deliveries_failed,
    last_delivery_at: w.stats.last_delivery_at,
    last_response_status: w.stats.last_response_status,
  },
  created: w.created,
  updated: w.updated,
});
