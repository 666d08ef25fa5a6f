import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { entityDecider, invalid, notFound, type Address, type BusinessPatch, type EntityState, type ExistingEntity, type IndividualPatch, type Profile } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, loadAggregate, type CommandContext } from '../command-handling';
import { ENTITY_ID, entityIdOfPerson, entityStream, personIdOf } from './streams';

export interface NewEntity {
  readonly type: 'individual' | 'business';
  readonly profile: Profile;
  readonly address: Address | null;
  readonly meta: Readonly<Record<string, string>>;
  readonly creation_context: 'api' | 'quick_start';
}

export type EntityUpdate =
  | { readonly type: 'individual'; readonly patch: IndividualPatch }
  | { readonly type: 'business'; readonly patch: BusinessPatch };

@Injectable()
export class EntitiesService {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async create(context: CommandContext, input: NewEntity): Promise<ExistingEntity> {
    const entityId = `ent_${ulid()}`;
    const { state } = await handleCommand(
      this.store,
      entityStream(entityId),
      entityDecider,
      {
        type: 'CreateEntity',
        entity_id: entityId,
        person_id: input.type === 'individual' ? personIdOf(entityId) : null,
        entity_type: input.type,
        profile: input.profile,
        address: input.address,
        meta: input.meta,
        mode: context.actor.mode,
        creation_context: input.creation_context,
        now: Date.now(),
      },
      context,
      // The entity owns its own stream, so an entity token sees exactly its entity.
      { entityId },
    );
    return state as ExistingEntity;
  }

  /** The entity as the caller may see it; 404 when absent or another organization's, 403 for another entity's token. */
  async get(context: Pick<CommandContext, 'actor'>, entityId: string): Promise<ExistingEntity> {
    const loaded = ENTITY_ID.test(entityId) ? await loadAggregate(this.store, entityStream(entityId), entityDecider, context) : null;
    if (!loaded || loaded.state.status === 'none') throw new DomainException(notFound('entity', entityId));
    return loaded.state;
  }

  async update(context: CommandContext, entityId: string, update: EntityUpdate): Promise<{ state: ExistingEntity; applied: Readonly<Record<string, readonly string[]>> | null }> {
    if (!ENTITY_ID.test(entityId)) throw new DomainException(notFound('entity', entityId));
    await this.checkReferences(context, update);
    const now = Date.now();
    const { state, newEvents } = await handleCommand(
      this.store,
      entityStream(entityId),
      entityDecider,
      update.type === 'individual'
        ? { type: 'UpdateIndividualEntity', entity_id: entityId, patch: update.patch, now }
        : { type: 'UpdateBusinessEntity', entity_id: entityId, patch: update.patch, new_officer_ids: (update.patch.business_officers ?? []).map(() => `off_${ulid()}`), now },
      context,
    );
    const updated = newEvents.find((e) => e.type === 'EntityUpdated');
    return { state: state as ExistingEntity, applied: updated?.type === 'EntityUpdated' ? updated.data.changes_applied : null };
  }

  /** Parents and linked officers must be entities the caller can see; checked before anything is written. */
  private async checkReferences(context: CommandContext, update: EntityUpdate): Promise<void> {
    const refs: { field: string; entityId: string | null; individual: boolean }[] = [];
    if (update.patch.parent_entity) refs.push({ field: 'parent_entity', entityId: update.patch.parent_entity, individual: false });
    if (update.type === 'business') {
      (update.patch.business_officers ?? []).forEach((item, i) => {
        if (item.person_id) refs.push({ field: `business_officers[${i}].person_id`, entityId: entityIdOfPerson(item.person_id), individual: true });
      });
    }
    for (const ref of refs) {
      const loaded = ref.entityId && ENTITY_ID.test(ref.entityId) ? await loadAggregate(this.store, entityStream(ref.entityId), entityDecider, context) : null;
      const state = loaded?.state;
      if (!state || state.status === 'none' || (ref.individual && state.type !== 'individual')) {
        throw new DomainException(invalid(ref.field, ref.individual ? 'no individual entity has this person_id' : 'no entity with this id'));
      }
    }
  }
}

export const isExisting = (state: EntityState): state is ExistingEntity => state.status !== 'none';
