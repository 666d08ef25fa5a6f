import {
  CARD_AUTHORIZATION_REQUEST,
  claimInFlight,
  domainError,
  isExistingWebhook,
  refuseSecondAuthorizationEndpoint,
  subscribesTo,
  webhookDecider,
  webhookIndexDecider,
  webhookStatusAt,
  type ExistingWebhook,
  type WebhookIndexCommand,
  type WebhookIndexState,
  type WebhookSettings,
} from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, foldStream, handleCommand, type CommandContext } from '../command-handling';
import { webhookIndexStream, webhookStream } from './streams';

/**
 * The entity's webhooks, read from its index and their own streams (never a read model, which
 * trails the log): what decisions §16's one-endpoint rule and an authorization are decided on.
 */
export async function entityWebhooks(store: EventStore, entityId: string): Promise<ExistingWebhook[]> {
  const index = await foldStream(store, webhookIndexStream(entityId), webhookIndexDecider);
  const states = await Promise.all(
    index.state.webhook_ids.map(async (id) => (await foldStream(store, webhookStream(id), webhookDecider)).state),
  );
  return states.filter(isExistingWebhook);
}

/** The entity's one active webhook subscribed to `card_authorizations.request`, if any (decisions §16). */
export async function authorizationEndpoint(
  store: EventStore,
  entityId: string,
  now: number,
): Promise<ExistingWebhook | null> {
  const webhooks = await entityWebhooks(store, entityId);
  return (
    webhooks.find(
      (w) => webhookStatusAt(w, now) === 'active' && subscribesTo(w.enabled_events, CARD_AUTHORIZATION_REQUEST),
    ) ?? null
  );
}

/**
 * Decisions §16's one endpoint per entity, decided on the entity's index stream: when the webhook
 * (null: the one being created, `webhookId` then names it) would become an active endpoint, the
 * check reads the other webhooks' streams and the index's latest claim, and a claim is appended at
 * the index revision it read, so of two racing creations (or updates) one appends and the other
 * checks again, sees the claim and is refused 409 `authorization_endpoint_exists`. A creation
 * indexes its webhook in the same append.
 */
export async function claimAuthorizationEndpoint(
  store: EventStore,
  context: CommandContext,
  change: { readonly entityId: string; readonly webhookId: string; readonly creating: boolean },
  candidate: Pick<WebhookSettings, 'enabled_events' | 'status' | 'expires_at'>,
  now: number,
): Promise<void> {
  const { entityId, webhookId, creating } = change;
  const endpoint =
    webhookStatusAt(candidate, now) === 'active' && subscribesTo(candidate.enabled_events, CARD_AUTHORIZATION_REQUEST);
  if (!endpoint && !creating) return;
  const decide = async (index: WebhookIndexState): Promise<WebhookIndexCommand> => {
    const index_ = { type: 'IndexWebhook' as const, webhook_id: webhookId, entity_id: entityId };
    if (!endpoint) return index_;
    const others = index.webhook_ids.filter((id) => id !== webhookId);
    const folded = await Promise.all(others.map((id) => foldStream(store, webhookStream(id), webhookDecider)));
    const refused = refuseSecondAuthorizationEndpoint(
      candidate,
      folded.map((f) => f.state).filter(isExistingWebhook),
      now,
    );
    if (refused) throw new DomainException(refused);
    const revisions = new Map(others.map((id, i) => [id, folded[i].revision]));
    const pending = claimInFlight(index, webhookId, (id) => revisions.get(id) ?? -1, now);
    if (pending)
      throw new DomainException(
        domainError(
          'conflict',
          'authorization_endpoint_exists',
          `Webhook ${pending.webhook_id} is becoming this entity's authorization endpoint; disable or unsubscribe it first`,
        ),
      );
    const revision = creating ? -1 : (await foldStream(store, webhookStream(webhookId), webhookDecider)).revision;
    const claim = { webhook_id: webhookId, revision, at: now };
    return creating ? { ...index_, claim } : { type: 'ClaimAuthorizationEndpoint', entity_id: entityId, claim };
  };
  await handleCommand(store, webhookIndexStream(entityId), webhookIndexDecider, decide, context, { entityId });
}
