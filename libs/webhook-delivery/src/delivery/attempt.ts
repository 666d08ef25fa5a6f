import { isExistingWebhook, subscribesTo, webhookDecider, webhookStatusAt, type ExistingWebhook, type WebhookState } from '@app/domain';
import { foldStream } from '@app/application/command-handling';
import { webhookStream } from '@app/application/webhooks';
import type { CancelReason, Delivery, DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { formatTraceparent, newSpanId, traceIdOf } from '@app/platform/logging/trace-context';
import { webhookAttemptDuration, webhookAttempts } from '@app/platform/metrics/metrics';
import type { SecretBox } from '@app/platform/security/secret-box';
import { postOnce } from './https-post';
import { queryParams, redact } from './redact';
import { nextAttemptAt } from './retry-schedule';
import { signatureHeaders } from './signature';

export interface AttemptSettings {
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly retryScheduleMs: readonly number[];
  /** A claimed attempt that outlives its timeout by this much is presumed lost with its worker. */
  readonly leaseMarginMs: number;
}

export interface AttemptDeps {
  readonly deliveries: DeliveryStore;
  /** The log, for the webhook as it is now (its stream, folded and cached). */
  readonly events: EventStore;
  readonly box: SecretBox;
}

/** Why a pending delivery must not be attempted now, read from the webhook right before sending. */
export function refusal(webhook: WebhookState, delivery: Pick<Delivery, 'test' | 'event'>, now: number): CancelReason | null {
  if (!isExistingWebhook(webhook)) return 'webhook_deleted';
  if (webhookStatusAt(webhook, now) !== 'active') return 'webhook_inactive';
  if (!delivery.test && !subscribesTo(webhook.enabled_events, delivery.event)) return 'webhook_unsubscribed';
  return null;
}

/**
 * One attempt of one delivery: check the webhook, claim the attempt, sign, POST, log. Deleting or
 * deactivating a webhook cancels what it still had pending; a 2xx ends the delivery for good. A
 * delivery that ends hands its queue on; the delivery that becomes the head is returned, so the
 * scheduler can attempt it at once.
 */
export async function attemptDelivery(deps: AttemptDeps, deliveryId: string, settings: AttemptSettings): Promise<string | null> {
  const delivery = await deps.deliveries.get(deliveryId);
  if (!delivery) return null;
  // Finished but still the head: the worker that finished it stopped before handing off.
  if (delivery.status !== 'pending') return deps.deliveries.handOff(deliveryId);
  const now = Date.now();
  if (!delivery.head || now < delivery.due_at) return null;
  const webhook = (await foldStream(deps.events, webhookStream(delivery.webhook_id), webhookDecider)).state;
  const refused = refusal(webhook, delivery, now);
  if (refused || !isExistingWebhook(webhook)) {
    await deps.deliveries.cancel(deliveryId, refused ?? 'webhook_deleted', now);
    return deps.deliveries.handOff(deliveryId);
  }
  const claimed = await deps.deliveries.claim(deliveryId, now, settings.timeoutMs + settings.leaseMarginMs);
  if (!claimed) return null;
  const after = await send(deps, webhook, claimed, settings);
  return after && after.status !== 'pending' ? deps.deliveries.handOff(deliveryId) : null;
}

/** Signs and POSTs the claimed attempt and logs its outcome; returns the delivery after it. */
async function send({ deliveries, box }: AttemptDeps, webhook: ExistingWebhook, delivery: Delivery, settings: AttemptSettings): Promise<Delivery | null> {
  const url = new URL(webhook.url);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'payments-webhooks/1.0',
    // W3C trace context: the trace of the request behind the event, this attempt as its span.
    traceparent: formatTraceparent({ traceId: delivery.trace_id ?? traceIdOf(delivery.id), spanId: newSpanId(), sampled: true }),
    ...signatureHeaders(box.open(webhook.signing_key), delivery.event_id, delivery.payload, Date.now()),
  };
  const result = await postOnce(url, delivery.payload, headers, settings);
  const status_code = result.response?.status_code ?? 0;
  const status = status_code >= 200 && status_code < 300 ? 'succeeded' : 'failed';
  const outcome = result.response ? status : 'error';
  webhookAttempts.inc({ outcome });
  webhookAttemptDuration.observe({ outcome }, (result.completed_at - result.sent_at) / 1000);
  const log = {
    id: `whl_${ulid()}`,
    delivery_id: delivery.id,
    organization_id: delivery.organization_id,
    mode: delivery.mode,
    entity_id: delivery.entity_id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event: delivery.event,
    url: webhook.url,
    attempt: delivery.attempts,
    status,
    request: { method: 'POST', headers: redact(headers), body: delivery.payload },
    query_params: queryParams(url),
    response: result.response && { ...result.response, headers: redact(result.response.headers) },
    error: result.error ?? (result.response && status_code >= 300 ? `HTTP ${status_code}` : null),
    duration_ms: result.completed_at - result.sent_at,
    created: result.completed_at,
    sent_at: result.sent_at,
    completed_at: result.completed_at,
  } as const;
  return deliveries.record({ log, next_attempt_at: nextAttemptAt(settings.retryScheduleMs, delivery.attempts, result.completed_at) });
}
