import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { entityDecider } from '@app/domain/onboarding';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { entityStream } from '../streams';
import { CompleteAutomaticReviewCommand } from './complete-automatic-review.command';

@CommandHandler(CompleteAutomaticReviewCommand)
export class CompleteAutomaticReviewHandler implements ICommandHandler<CompleteAutomaticReviewCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId }: CompleteAutomaticReviewCommand): Promise<void> {
    await handleCommand(
      this.store,
      entityStream(entityId),
      entityDecider,
      { type: 'CompleteAutomaticReview', entity_id: entityId, now: this.clock.now() },
      context,
    );
  }
}
