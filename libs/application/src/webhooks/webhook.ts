import {
  notFound,
  refuseWebhookUrl,
  webhookDecider,
  webhookStatusAt,
  type ExistingWebhook,
  type WebhookSettingsInput,
} from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type Actor } from '../command-handling';
import { refusePrivateDestination } from './destination';
import { isWebhookId, webhookStream } from './streams';

/** Settings as a client gives them: the secret in clear (only its sealed digest is ever stored). */
export type WebhookInput = Omit<WebhookSettingsInput, 'signing_key'> & { readonly secret?: string };

/** Folds the stream (read-your-writes); a webhook of another entity than the one named is not found. */
export async function loadWebhook(
  store: EventStore,
  actor: Actor,
  entityId: string,
  webhookId: string,
): Promise<ExistingWebhook> {
  const loaded = isWebhookId(webhookId)
    ? await loadAggregate(store, webhookStream(webhookId), webhookDecider, { actor })
    : null;
  const state = loaded?.state;
  if (!state || (state.status !== 'active' && state.status !== 'inactive') || state.entity_id !== entityId) {
    throw new DomainException(notFound('webhook', webhookId));
  }
  return state;
}

/**
 * The webhook as it stands at `now` (the caller's clock): its status `inactive` once `expires_at`
 * has passed (decisions §9). What commands and queries answer, so a presenter reads no clock.
 */
export const webhookAt = (webhook: ExistingWebhook, now: number): ExistingWebhook => ({
  ...webhook,
  status: webhookStatusAt(webhook, now),
});

/** Shape first (domain), then where the host points; nothing is written when either refuses. */
export async function checkWebhookUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refused = refuseWebhookUrl(url);
  if (refused) throw new DomainException(refused);
  await refusePrivateDestination(url, allowPrivate);
}
