import type { AttemptLog } from '@app/platform/delivery-store/delivery-store.port';
import type { WebhookLogBody } from './webhook-log.schema';

/** The log entry (decisions §9), from the delivery store's immutable attempt log. */
export const presentWebhookLog = (l: AttemptLog): WebhookLogBody => ({
  id: l.id,
  object: 'webhook_log',
  entity_id: l.entity_id,
  webhook_id: l.webhook_id,
  event_id: l.event_id,
  event: l.event,
  url: l.url,
  attempt: l.attempt,
  status: l.status,
  request: l.request,
  query_params: l.query_params,
  response: l.response,
  error: l.error,
  duration_ms: l.duration_ms,
  created: l.created,
  sent_at: l.sent_at,
  completed_at: l.completed_at,
});
