import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { entityDecider, type ExistingEntity } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { entityStreamOf } from '../entity';
import { ReviewEntityCommand } from './review-entity.command';

@CommandHandler(ReviewEntityCommand)
export class ReviewEntityHandler implements ICommandHandler<ReviewEntityCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, input: { entityId, decision, reason } }: ReviewEntityCommand): Promise<ExistingEntity> {
    const reviewer = context.actor.kind === 'operator' ? ('operator' as const) : ('sandbox_review' as const);
    const command = {
      type: 'ReviewEntity' as const,
      entity_id: entityId,
      decision,
      reason,
      reviewer,
      now: this.clock.now(),
    };
    const { state } = await handleCommand(this.store, entityStreamOf(entityId), entityDecider, command, context);
    return state as ExistingEntity;
  }
}
