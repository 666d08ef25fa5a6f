import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { cardDecider, type IssuedCardState } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { loadCard } from '../card-checks';
import { cardStream } from '../streams';
import { ChangeCardStatusCommand } from './change-card-status.command';

@CommandHandler(ChangeCardStatusCommand)
export class ChangeCardStatusHandler implements ICommandHandler<ChangeCardStatusCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, cardId, change }: ChangeCardStatusCommand): Promise<IssuedCardState> {
    await loadCard(this.store, context.actor, cardId);
    const command = { type: change, card_id: cardId, now: this.clock.now() };
    const { state } = await handleCommand(this.store, cardStream(cardId), cardDecider, command, context);
    return state as IssuedCardState;
  }
}
