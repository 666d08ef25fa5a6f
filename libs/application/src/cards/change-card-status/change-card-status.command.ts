import { Command } from '@nestjs/cqrs';
import type { IssuedCardState } from '@app/domain/cards';
import type { CommandContext } from '../../command-handling';

export type CardStatusChange = 'FreezeCard' | 'UnfreezeCard' | 'MarkCardFraud' | 'DeleteCard';

/** Freeze, unfreeze, fraud (sandbox) and soft delete: one transition of the card's state table each. */
export class ChangeCardStatusCommand extends Command<IssuedCardState> {
  constructor(
    readonly context: CommandContext,
    readonly cardId: string,
    readonly change: CardStatusChange,
  ) {
    super();
  }
}
