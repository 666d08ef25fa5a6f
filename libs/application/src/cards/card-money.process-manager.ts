import type { CommandBus } from '@nestjs/cqrs';
import type { CardEvent } from '@app/domain/cards';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import type { ProcessManager } from '@app/platform/log-processing';
import { ApplyCardMoneyCommand } from './apply-card-money/apply-card-money.command';

/** Requests apply a card's money before answering; this applies it from the log if one died midway. */
export function cardMoneyManager(commands: CommandBus): ProcessManager {
  return {
    name: 'card-money',
    handles: [
      'CardAuthorizationHeld',
      'CardTransactionCaptured',
      'CardTransactionReversed',
      'CardHoldDeclined',
      'CardAuthorizationApproved',
    ],
    async handle(recorded: RecordedEvent) {
      await commands.execute(
        new ApplyCardMoneyCommand(reactionContext(recorded, 'card-money'), recorded as unknown as CardEvent),
      );
    },
  };
}
