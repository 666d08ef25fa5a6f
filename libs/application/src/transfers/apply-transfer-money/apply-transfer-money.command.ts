import { Command } from '@nestjs/cqrs';
import type { TransferEvent } from '@app/domain/transfers';
import type { CommandContext } from '../../command-handling';

/** Applies what one transfer event does to money (the transfer-money process manager's backstop). */
export class ApplyTransferMoneyCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly event: TransferEvent,
  ) {
    super();
  }
}
