import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { entityDecider, type EntityCommand, type ExistingEntity } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { entityStreamOf } from '../entity';
import { checkEntityReferences } from './entity-references';
import { UpdateEntityCommand, type EntityUpdate, type UpdatedEntity } from './update-entity.command';

@CommandHandler(UpdateEntityCommand)
export class UpdateEntityHandler implements ICommandHandler<UpdateEntityCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** References are checked before anything is written. */
  async execute({ context, entityId, update }: UpdateEntityCommand): Promise<UpdatedEntity> {
    const stream = entityStreamOf(entityId);
    await checkEntityReferences(this.store, context, update);
    const { state, newEvents } = await handleCommand(
      this.store,
      stream,
      entityDecider,
      updateCommand(entityId, update, this.clock.now()),
      context,
    );
    const updated = newEvents.find((e) => e.type === 'EntityUpdated');
    return {
      state: state as ExistingEntity,
      applied: updated?.type === 'EntityUpdated' ? updated.data.changes_applied : null,
    };
  }
}

function updateCommand(entityId: string, update: EntityUpdate, now: number): EntityCommand {
  if (update.type === 'individual')
    return { type: 'UpdateIndividualEntity', entity_id: entityId, patch: update.patch, now };
  const new_officer_ids = (update.patch.business_officers ?? []).map(() => `off_${ulid()}`);
  return { type: 'UpdateBusinessEntity', entity_id: entityId, patch: update.patch, new_officer_ids, now };
}
