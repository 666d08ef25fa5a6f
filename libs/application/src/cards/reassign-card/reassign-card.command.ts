import { Command } from '@nestjs/cqrs';
import type { IssuedCardState } from '@app/domain/cards';
import type { CommandContext } from '../../command-handling';

/** PATCH /cards/{id}/account: the card draws on another account of its entity from now on. */
export class ReassignCardCommand extends Command<IssuedCardState> {
  constructor(
    readonly context: CommandContext,
    readonly cardId: string,
    readonly accountId: string,
  ) {
    super();
  }
}
