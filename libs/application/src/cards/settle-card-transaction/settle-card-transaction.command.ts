import { Command } from '@nestjs/cqrs';
import type { CardTransactionRecord } from '@app/domain/cards';
import type { CommandContext } from '../../command-handling';

/** Capture (all or `amount` of the hold) or reverse a pending card transaction (decisions §8). */
export class SettleCardTransactionCommand extends Command<CardTransactionRecord> {
  constructor(
    readonly context: CommandContext,
    readonly transactionId: string,
    readonly how: { readonly capture: number | null } | 'reverse',
  ) {
    super();
  }
}
