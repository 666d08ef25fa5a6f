import {
  isExistingWebhook,
  signingKeysAt,
  subscribesTo,
  webhookDecider,
  webhookStatusAt,
  type ExistingWebhook,
  type WebhookState,
} from '@app/domain';
import { foldStream } from '@app/application/command-handling';
import { webhookStream } from '@app/application/webhooks';
import type { CancelReason, Delivery, DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { formatTraceparent, newSpanId, traceIdOf } from '@app/platform/logging/trace-context';
import { webhookAttemptDuration, webhookAttempts } from '@app/platform/metrics/metrics';
import type { SecretBox } from '@app/platform/security/secret-box';
import type { Clock } from '@app/platform/clock';
import { attemptLogOf } from './attempt-log';
import { afterFailure } from './failing';
import { postOnce } from './https-post';
import { nextAttemptAt } from './retry-schedule';
import { signatureHeaders } from './signature';

export interface AttemptSettings {
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly retryScheduleMs: readonly number[];
  /** A claimed attempt that outlives its timeout by this much is presumed lost with its worker. */
  readonly leaseMarginMs: number;
  /** `WEBHOOK_DISABLE_AFTER_MS` (decisions §15): a webhook failing this long is disabled. */
  readonly disableAfterMs: number;
}

export interface AttemptDeps {
  readonly deliveries: DeliveryStore;
  /** The log, for the webhook as it is now (its stream, folded and cached). */
  readonly events: EventStore;
  readonly box: SecretBox;
  readonly clock: Clock;
}

/**
 * Why a pending delivery must not be attempted now, read from the webhook right before sending:
 * `paused` while it is inactive (decisions §15: kept, and resumed when it is active again). A test
 * and a resend are asked for by name, so they go whatever the webhook subscribes to now.
 */
export function refusal(
  webhook: WebhookState,
  delivery: Pick<Delivery, 'test' | 'event' | 'resend_of'>,
  now: number,
): CancelReason | 'paused' | null {
  if (!isExistingWebhook(webhook)) return 'webhook_deleted';
  if (webhookStatusAt(webhook, now) !== 'active') return 'paused';
  if (!delivery.test && !delivery.resend_of && !subscribesTo(webhook.enabled_events, delivery.event))
    return 'webhook_unsubscribed';
  return null;
}

const webhookNow = async (deps: AttemptDeps, webhookId: string) =>
  (await foldStream(deps.events, webhookStream(webhookId), webhookDecider)).state;

/**
 * One attempt of one delivery: check the webhook, claim the attempt, sign, POST (then `answered`),
 * log. Deleting a
 * webhook or unsubscribing cancels what it still had pending; an inactive webhook's deliveries
 * pause; a 2xx ends the delivery for good. A delivery that ends hands its queue on; the delivery
 * that becomes the head is returned, so the scheduler can attempt it at once.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  deliveryId: string,
  settings: AttemptSettings,
  answered: () => void = () => undefined,
): Promise<string | null> {
  const delivery = await deps.deliveries.get(deliveryId);
  if (!delivery) return null;
  // Finished but still the head: the worker that finished it stopped before handing off.
  if (delivery.status !== 'pending') return deps.deliveries.handOff(deliveryId);
  const now = deps.clock.now();
  if (!delivery.head || now < delivery.due_at) return null;
  const webhook = await webhookNow(deps, delivery.webhook_id);
  const refused = refusal(webhook, delivery, now);
  if (refused === 'paused') return pause(deps, delivery);
  if (refused || !isExistingWebhook(webhook)) {
    await deps.deliveries.cancel(deliveryId, refused ?? 'webhook_deleted', now);
    return deps.deliveries.handOff(deliveryId);
  }
  const claimed = await deps.deliveries.claim(deliveryId, now, settings.timeoutMs + settings.leaseMarginMs);
  if (!claimed) return null;
  const after = await send(deps, webhook, claimed, settings, answered);
  return after && after.status !== 'pending' ? deps.deliveries.handOff(deliveryId) : null;
}

/**
 * Parks the queue's head until its webhook is active again (the router resumes it on the update).
 * An update that landed between the fold and the pause has resumed nothing yet: read again, and
 * resume at once if so.
 */
async function pause(deps: AttemptDeps, delivery: Delivery): Promise<null> {
  await deps.deliveries.pause(delivery.id);
  if (refusal(await webhookNow(deps, delivery.webhook_id), delivery, deps.clock.now()) !== 'paused')
    await deps.deliveries.resume(delivery.webhook_id, deps.clock.now());
  return null;
}

/** Signs and POSTs the claimed attempt and logs its outcome; returns the delivery after it. */
async function send(
  deps: AttemptDeps,
  webhook: ExistingWebhook,
  delivery: Delivery,
  settings: AttemptSettings,
  answered: () => void,
): Promise<Delivery | null> {
  const { deliveries, box } = deps;
  const url = new URL(webhook.url);
  const sentAt = deps.clock.now();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'payments-webhooks/1.0',
    // W3C trace context: the trace of the request behind the event, this attempt as its span.
    traceparent: formatTraceparent({
      traceId: delivery.trace_id ?? traceIdOf(delivery.id),
      spanId: newSpanId(),
      sampled: true,
    }),
    // During a rotation's overlap, the new key's signature first, then the previous one's (decisions §15).
    ...signatureHeaders(
      signingKeysAt(webhook, sentAt).map((sealed) => box.open(sealed)),
      delivery.event_id,
      delivery.payload,
      sentAt,
    ),
  };
  const result = await postOnce(url, delivery.payload, headers, { ...settings, clock: deps.clock });
  answered();
  const log = attemptLogOf(
    {
      delivery_id: delivery.id,
      organization_id: delivery.organization_id,
      mode: delivery.mode,
      entity_id: delivery.entity_id,
      webhook_id: delivery.webhook_id,
      event_id: delivery.event_id,
      event: delivery.event,
      attempt: delivery.attempts,
    },
    { url: webhook.url, target: url, headers, body: delivery.payload, result },
  );
  const status = log.status;
  const outcome = result.response ? status : 'error';
  webhookAttempts.inc({ outcome });
  webhookAttemptDuration.observe({ outcome }, (result.completed_at - result.sent_at) / 1000);
  // A resend is one attempt, never retried; a recovered delivery counts its retries afresh (decisions §15).
  const retry = delivery.resend_of
    ? null
    : nextAttemptAt(settings.retryScheduleMs, delivery.attempts - (delivery.retry_base ?? 0), result.completed_at);
  const after = await deliveries.record({ log, next_attempt_at: retry });
  if (status === 'failed') await afterFailure(deps, webhook, log, retry, settings.disableAfterMs);
  return after;
}
