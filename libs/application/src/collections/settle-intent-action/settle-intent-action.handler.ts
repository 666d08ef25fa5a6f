import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { loadAction } from '../load';
import { settleAction } from '../settle-action';
import { SettleIntentActionCommand } from './settle-intent-action.command';

@CommandHandler(SettleIntentActionCommand)
export class SettleIntentActionHandler implements ICommandHandler<SettleIntentActionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, intentActionId }: SettleIntentActionCommand): Promise<void> {
    const { action } = await loadAction(this.store, context.actor, intentActionId);
    await settleAction(this.store, action, context, this.clock.now());
  }
}
