import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { entityDecider, type ExistingEntity } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { entityStream, personIdOf } from '../streams';
import { CreateEntityCommand } from './create-entity.command';

@CommandHandler(CreateEntityCommand)
export class CreateEntityHandler implements ICommandHandler<CreateEntityCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, input }: CreateEntityCommand): Promise<ExistingEntity> {
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
        now: this.clock.now(),
      },
      context,
      // The entity owns its own stream, so an entity token sees exactly its entity.
      { entityId },
    );
    return state as ExistingEntity;
  }
}
