import { Command } from '@nestjs/cqrs';
import type { CollectionEvent } from '@app/domain/accounts';
import type { CommandContext } from '../../command-handling';

/** Sent by the refund process manager from the account's `CollectionRefunded`. */
export class RecordRefundCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly debit: Extract<CollectionEvent, { type: 'CollectionRefunded' }>['data'],
  ) {
    super();
  }
}
