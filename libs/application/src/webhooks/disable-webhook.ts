import { webhookDecider } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import type { Mode } from '@app/platform/event-store/event-mode';
import { handleCommand, systemActor } from '../command-handling';
import { webhookStream } from './streams';

/**
 * The delivery worker disables a webhook that has been failing too long (decisions §15) through
 * the webhook's own decider, acting for its organization and mode. Idempotent: the decider records
 * nothing for a webhook already inactive, so two workers, or a retried attempt, disable it once.
 * Resolves to whether this call disabled it.
 */
export async function disableFailingWebhook(
  store: EventStore,
  webhook: { readonly id: string; readonly organizationId: string; readonly mode: Mode },
  failingSince: number,
  now: number,
  cause: { readonly correlationId: string; readonly causationId: string },
): Promise<boolean> {
  const context = { actor: systemActor(webhook.organizationId, 'webhooks', webhook.mode), ...cause };
  const command = { type: 'DisableWebhook' as const, webhook_id: webhook.id, failing_since: failingSince, now };
  const { newEvents } = await handleCommand(store, webhookStream(webhook.id), webhookDecider, command, context);
  return newEvents.length > 0;
}
