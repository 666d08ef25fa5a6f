import {
  CARD_AUTHORIZATION_REQUEST,
  isExistingWebhook,
  refuseSecondAuthorizationEndpoint,
  subscribesTo,
  webhookDecider,
  webhookIndexDecider,
  webhookStatusAt,
  type ExistingWebhook,
  type WebhookSettings,
} from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, foldStream } from '../command-handling';
import { webhookIndexStream, webhookStream } from './streams';

/**
 * The entity's webhooks, read from its index and their own streams (never a read model, which
 * trails the log): what decisions §16's one-endpoint rule and an authorization are decided on.
 */
export async function entityWebhooks(store: EventStore, entityId: string): Promise<ExistingWebhook[]> {
  const index = await foldStream(store, webhookIndexStream(entityId), webhookIndexDecider);
  const states = await Promise.all(index.state.webhook_ids.map(async (id) => (await foldStream(store, webhookStream(id), webhookDecider)).state));
  return states.filter(isExistingWebhook);
}

/** The entity's one active webhook subscribed to `card_authorizations.request`, if any (decisions §16). */
export async function authorizationEndpoint(store: EventStore, entityId: string, now: number): Promise<ExistingWebhook | null> {
  const webhooks = await entityWebhooks(store, entityId);
  return webhooks.find((w) => webhookStatusAt(w, now) === 'active' && subscribesTo(w.enabled_events, CARD_AUTHORIZATION_REQUEST)) ?? null;
}

/** 409 `authorization_endpoint_exists` when the webhook would become a second active endpoint. */
export async function checkOneAuthorizationEndpoint(
  store: EventStore,
  entityId: string,
  webhookId: string | null,
  candidate: Pick<WebhookSettings, 'enabled_events' | 'status' | 'expires_at'>,
  now: number,
): Promise<void> {
  if (!subscribesTo(candidate.enabled_events, CARD_AUTHORIZATION_REQUEST)) return;
  const others = (await entityWebhooks(store, entityId)).filter((w) => w.id !== webhookId);
  const refused = refuseSecondAuthorizationEndpoint(candidate, others, now);
  if (refused) throw new DomainException(refused);
}
