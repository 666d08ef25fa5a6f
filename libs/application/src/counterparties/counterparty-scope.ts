import { notFound, type Scope } from '@app/domain';
import { accountDecider } from '@app/domain/accounts';
import { entityDecider } from '@app/domain/onboarding';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream, isAccountId } from '../accounts/streams';
import { DomainException, loadAggregate, type Actor, type CommandContext } from '../command-handling';
import { ENTITY_ID, entityStream } from '../onboarding/streams';

/** An entity token acts for its entity only; an API key naming an entity confirms the scope. */
export const scopeOf = (actor: Actor, entityId?: string): Scope | null =>
  actor.entityId
    ? { entity_id: actor.entityId, kind: 'token' }
    : entityId
      ? { entity_id: entityId, kind: 'confirm' }
      : null;

/** The owner can change (reassignment), so streams are read at organization level and the decider judges the entity. */
export const orgOnly = (context: CommandContext): CommandContext => ({
  ...context,
  actor: { ...context.actor, entityId: undefined },
});

/** The entity must exist in the organization (404 otherwise, exactly as a missing one). */
export async function requireEntity(store: EventStore, context: CommandContext, entityId: string): Promise<void> {
  const loaded = ENTITY_ID.test(entityId)
    ? await loadAggregate(store, entityStream(entityId), entityDecider, context)
    : null;
  if (!loaded || loaded.state.status === 'none') throw new DomainException(notFound('entity', entityId));
}

/**
 * With an API key a book transfer lands in any open account of the organization, whichever entity
 * holds it. An entity token sees its own entity's accounts only: another entity's answers exactly
 * as an absent one, so the token learns neither that it exists nor its currency.
 */
export async function bookDestination(store: EventStore, context: CommandContext, accountId: string) {
  if (!isAccountId(accountId)) return null;
  const loaded = await loadAggregate(store, accountStream(accountId), accountDecider, orgOnly(context));
  if (!loaded || loaded.state.status !== 'open') return null;
  const tokenEntity = context.actor.entityId;
  return tokenEntity && loaded.state.entity_id !== tokenEntity
    ? null
    : { account_id: accountId, currency: loaded.state.currency };
}
