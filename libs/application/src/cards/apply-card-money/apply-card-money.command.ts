import { Command } from '@nestjs/cqrs';
import type { CardEvent } from '@app/domain/cards';
import type { CommandContext } from '../../command-handling';

/** Sent by the card-money process manager: the account side of a card event, applied once. */
export class ApplyCardMoneyCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly event: CardEvent,
  ) {
    super();
  }
}
