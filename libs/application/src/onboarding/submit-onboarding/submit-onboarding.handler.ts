import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { entityDecider, type ExistingEntity } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { entityStreamOf } from '../entity';
import { SubmitOnboardingCommand } from './submit-onboarding.command';

@CommandHandler(SubmitOnboardingCommand)
export class SubmitOnboardingHandler implements ICommandHandler<SubmitOnboardingCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId }: SubmitOnboardingCommand): Promise<ExistingEntity> {
    const command = { type: 'SubmitOnboarding' as const, entity_id: entityId, now: this.clock.now() };
    const { state } = await handleCommand(this.store, entityStreamOf(entityId), entityDecider, command, context);
    return state as ExistingEntity;
  }
}
