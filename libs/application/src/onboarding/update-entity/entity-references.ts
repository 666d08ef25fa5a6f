import { entityDecider, invalid } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type CommandContext } from '../../command-handling';
import { ENTITY_ID, entityIdOfPerson, entityStream } from '../streams';
import type { EntityUpdate } from './update-entity.command';

interface Reference {
  readonly field: string;
  readonly entityId: string | null;
  readonly individual: boolean;
}

/** Parents and linked officers must be entities the caller can see, folded from their streams. */
export async function checkEntityReferences(
  store: EventStore,
  context: CommandContext,
  update: EntityUpdate,
): Promise<void> {
  for (const ref of referencesOf(update)) {
    const loaded =
      ref.entityId && ENTITY_ID.test(ref.entityId)
        ? await loadAggregate(store, entityStream(ref.entityId), entityDecider, context)
        : null;
    const state = loaded?.state;
    if (!state || state.status === 'none' || (ref.individual && state.type !== 'individual')) {
      throw new DomainException(
        invalid(ref.field, ref.individual ? 'no individual entity has this person_id' : 'no entity with this id'),
      );
    }
  }
}

function referencesOf(update: EntityUpdate): Reference[] {
  const refs: Reference[] = [];
  if (update.patch.parent_entity)
    refs.push({ field: 'parent_entity', entityId: update.patch.parent_entity, individual: false });
  if (update.type === 'business') {
    (update.patch.business_officers ?? []).forEach((item, i) => {
      if (item.person_id)
        refs.push({
          field: `business_officers[${i}].person_id`,
          entityId: entityIdOfPerson(item.person_id),
          individual: true,
        });
    });
  }
  return refs;
}
