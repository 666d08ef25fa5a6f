import { entityDecider, notFound, type EntityState, type ExistingEntity } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type Actor } from '../command-handling';
import { ENTITY_ID, entityStream } from './streams';

/** The entity as the actor may see it; 404 when absent or another organization's, 403 for another entity's token. */
export async function loadEntity(store: EventStore, actor: Actor, entityId: string): Promise<ExistingEntity> {
  const loaded = ENTITY_ID.test(entityId)
    ? await loadAggregate(store, entityStream(entityId), entityDecider, { actor })
    : null;
  if (!loaded || loaded.state.status === 'none') throw new DomainException(notFound('entity', entityId));
  return loaded.state;
}

/** An id from a URL names an entity stream only when it is an entity id; anything else is a 404. */
export function entityStreamOf(entityId: string): string {
  if (!ENTITY_ID.test(entityId)) throw new DomainException(notFound('entity', entityId));
  return entityStream(entityId);
}

export const isExisting = (state: EntityState): state is ExistingEntity => state.status !== 'none';
