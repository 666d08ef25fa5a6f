import type { DeliveryAttemptRecord, DeliveryEvent } from '@app/domain';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';

export interface WebhookLogDocument extends Omit<DeliveryAttemptRecord, 'log_id'> {
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly entity_id: string;
  readonly webhook_id: string;
  readonly event_id: string;
  readonly event: string;
  readonly created: number;
  [field: string]: unknown;
}

/** GET /webhook-logs: one immutable entry per attempt, kept after the webhook is deleted. */
export const webhookLogProjection: Projection<WebhookLogDocument> = {
  name: 'webhook-logs',
  collection: 'webhook_logs',
  // Every filter its list offers, within one organization, mode and entity.
  indexes: [
    ['organization_id', 'mode', 'entity_id'],
    ['organization_id', 'mode', 'entity_id', 'webhook_id'],
    ['organization_id', 'mode', 'entity_id', 'event'],
    ['organization_id', 'mode', 'entity_id', 'status'],
  ],
  // 1: documents record their mode; older read models are rebuilt once to gain it.
  version: 1,
  handles: ['WebhookDeliveryAttempted'],
  documentIds: (event) => [String(event.data.log_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as DeliveryEvent;
    if (event.type !== 'WebhookDeliveryAttempted' || current) return current;
    const { log_id, delivery_id: _d, next_attempt_at: _n, ...entry } = event.data;
    return { ...entry, id: log_id, organization_id: recorded.metadata.organization_id, mode: modeOf(recorded.metadata), created: entry.completed_at };
  },
};

/** The log entry (decisions §9). */
export const presentWebhookLog = (l: WebhookLogDocument) => ({
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
