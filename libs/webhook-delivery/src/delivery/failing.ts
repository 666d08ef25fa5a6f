import type { ExistingWebhook } from '@app/domain';
import { disableFailingWebhook } from '@app/application/webhooks';
import type { AttemptLog, DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import type { Clock } from '@app/platform/clock';

/**
 * After a failed attempt: a warn line an operator can act on (issue 32, item 7), then automatic
 * disabling (decisions §15) once every attempt has failed for `disableAfterMs` since the webhook's
 * last success, or its first failure if it never succeeded. The measure is the delivery store's
 * per-webhook counter, moved with the attempt's log entry, so it costs one read here.
 */
export async function afterFailure(
  deps: { readonly deliveries: DeliveryStore; readonly events: EventStore; readonly clock: Clock },
  webhook: ExistingWebhook,
  log: AttemptLog,
  nextAttemptAt: number | null,
  disableAfterMs: number,
): Promise<void> {
  logger.warn(
    {
      component: 'webhooks',
      webhook_id: log.webhook_id,
      event_id: log.event_id,
      event: log.event,
      delivery_id: log.delivery_id,
      attempt: log.attempt,
      status_code: log.response?.status_code ?? null,
      error: log.error,
      next_attempt_at: nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString(),
    },
    nextAttemptAt === null
      ? 'webhook delivery attempt failed; no retry left'
      : 'webhook delivery attempt failed; retrying',
  );
  const failingSince = (await deps.deliveries.stats([log.webhook_id])).get(log.webhook_id)?.failing_since ?? null;
  if (failingSince === null || log.completed_at - failingSince < disableAfterMs) return;
  const target = { id: webhook.id, organizationId: log.organization_id, mode: log.mode };
  if (
    await disableFailingWebhook(deps.events, target, failingSince, deps.clock.now(), {
      correlationId: log.delivery_id,
      causationId: log.id,
    })
  ) {
    logger.warn(
      { component: 'webhooks', webhook_id: webhook.id, failing_since: new Date(failingSince).toISOString() },
      'webhook disabled: every attempt failed for WEBHOOK_DISABLE_AFTER_MS',
    );
  }
}
