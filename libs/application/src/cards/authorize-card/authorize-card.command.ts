import { Command } from '@nestjs/cqrs';
import type { CardTransactionRecord, Merchant } from '@app/domain/cards';
import type { CommandContext } from '../../command-handling';

export interface AuthorizeCardInput {
  readonly amount: number;
  readonly currency: string;
  readonly merchant: Merchant;
  /** false: stays pending, held, until captured or reversed (decisions §8). */
  readonly capture: boolean;
}

/** POST /sandbox/cards/{id}/authorizations: the sandbox network asks to spend on the card. */
export class AuthorizeCardCommand extends Command<CardTransactionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly cardId: string,
    readonly input: AuthorizeCardInput,
  ) {
    super();
  }
}
