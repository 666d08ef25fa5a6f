import { ulid } from '@app/platform/ids/ulid';
import { isExistingWebhook, subscribesTo, webhookStatusAt, type DeliveryCommand, type PendingDelivery, type WebhookState } from '@app/domain';
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
 */
export async function attemptDelivery(deliveries: Deliveries, box: SecretBox, deliveryId: string, settings: AttemptSettings): Promise<void> {
  const loaded = await deliveries.load(deliveryId);
  if (!loaded || loaded.state.status !== 'pending' || Date.now() < loaded.state.due_at) return;
  const { state: delivery, organizationId } = loaded;
  const webhook = await deliveries.webhook(delivery.webhook_id);
  const refused = refusal(webhook, delivery, Date.now());
  if (refused || !isExistingWebhook(webhook)) return deliveries.cancel(organizationId, deliveryId, refused ?? 'webhook_deleted');
  const attempt = await deliveries.start(organizationId, deliveryId, settings.timeoutMs + LEASE_MARGIN_MS);
  if (attempt === null) return;

  const url = new URL(webhook.url);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'payments-webhooks/1.0',
    ...signatureHeaders(box.open(webhook.signing_key), delivery.event_id, delivery.payload, Date.now()),
  };
  const result = await postOnce(url, delivery.payload, headers, settings);
  const status_code = result.response?.status_code ?? 0;
  await deliveries.record(
    organizationId,
    deliveryId,
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
