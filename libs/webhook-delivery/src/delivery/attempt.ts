import { ulid } from '@app/platform/ids/ulid';
import { isExistingWebhook, subscribesTo, webhookStatusAt, type DeliveryCommand, type DeliveryState, type ExistingWebhook, type PendingDelivery, type WebhookState } from '@app/domain';
import type { Deliveries } from '@app/application/webhooks';
import type { SecretBox } from '@app/platform/security/secret-box';
import { postOnce } from './https-post';
import { queryParams, redact } from './redact';
import { signatureHeaders } from './signature';

/** A claimed attempt that outlives its timeout by this much is presumed lost with its worker. */
const LEASE_MARGIN_MS = 30_000;

export interface AttemptSettings {
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly retryScheduleMs: readonly number[];
}

type CancelReason = Extract<DeliveryCommand, { type: 'CancelDelivery' }>['reason'];

/** Why a pending delivery must not be attempted now, read from the webhook right before sending. */
export function refusal(webhook: WebhookState, delivery: PendingDelivery, now: number): CancelReason | null {
  if (!isExistingWebhook(webhook)) return 'webhook_deleted';
  if (webhookStatusAt(webhook, now) !== 'active') return 'webhook_inactive';
  if (!delivery.test && !subscribesTo(webhook.enabled_events, delivery.event)) return 'webhook_unsubscribed';
  return null;
}

/**
 * One attempt of one delivery: check the webhook, claim the attempt, sign, POST, record. Deleting
 * or deactivating a webhook cancels what it still had pending; a 2xx ends the delivery for good.
 * A delivery that ends leaves its queue; the delivery that becomes the head is returned, so the
 * scheduler can attempt it at once.
 */
export async function attemptDelivery(deliveries: Deliveries, box: SecretBox, deliveryId: string, settings: AttemptSettings): Promise<string | null> {
  const loaded = await deliveries.load(deliveryId);
  if (!loaded || loaded.state.status === 'none') return null;
  const { state: delivery, organizationId } = loaded;
  // Finished but still queued: the worker that finished it stopped before dequeuing it.
  if (delivery.status !== 'pending') return leaveQueue(deliveries, organizationId, delivery);
  if (Date.now() < delivery.due_at) return null;
  const webhook = await deliveries.webhook(delivery.webhook_id);
  const refused = refusal(webhook, delivery, Date.now());
  if (refused || !isExistingWebhook(webhook)) {
    await deliveries.cancel(organizationId, deliveryId, refused ?? 'webhook_deleted');
    return leaveQueue(deliveries, organizationId, delivery);
  }
  const attempt = await deliveries.start(organizationId, deliveryId, settings.timeoutMs + LEASE_MARGIN_MS);
  if (attempt === null) return null;
  const after = await send(deliveries, box, { webhook, delivery, organizationId, attempt }, settings);
  return after.status === 'pending' ? null : leaveQueue(deliveries, organizationId, delivery);
}

function leaveQueue(deliveries: Deliveries, organizationId: string, delivery: Exclude<DeliveryState, { status: 'none' }>): Promise<string | null> {
  if (!delivery.resource) return Promise.resolve(null);
  return deliveries.dequeue(organizationId, { webhook_id: delivery.webhook_id, resource: delivery.resource, delivery_id: delivery.id });
}

interface Claimed {
  readonly webhook: ExistingWebhook;
  readonly delivery: PendingDelivery;
  readonly organizationId: string;
  readonly attempt: number;
}

/** Signs and POSTs the claimed attempt and records its outcome; returns the delivery after it. */
async function send(deliveries: Deliveries, box: SecretBox, { webhook, delivery, organizationId, attempt }: Claimed, settings: AttemptSettings): Promise<DeliveryState> {
  const url = new URL(webhook.url);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'payments-webhooks/1.0',
    ...signatureHeaders(box.open(webhook.signing_key), delivery.event_id, delivery.payload, Date.now()),
  };
  const result = await postOnce(url, delivery.payload, headers, settings);
  const status_code = result.response?.status_code ?? 0;
  return deliveries.record(
    organizationId,
    delivery.id,
    {
      log_id: `whl_${ulid()}`,
      attempt,
      url: webhook.url,
      status: status_code >= 200 && status_code < 300 ? 'succeeded' : 'failed',
      request: { method: 'POST', headers: redact(headers), body: delivery.payload },
      query_params: queryParams(url),
      response: result.response && { ...result.response, headers: redact(result.response.headers) },
      error: result.error ?? (result.response && status_code >= 300 ? `HTTP ${status_code}` : null),
      duration_ms: result.completed_at - result.sent_at,
      sent_at: result.sent_at,
      completed_at: result.completed_at,
    },
    settings.retryScheduleMs,
  );
}
