import { Command } from '@nestjs/cqrs';
import type { TransferIntent } from '@app/domain/transfers';
import type { CommandContext } from '../../command-handling';

/** Finishes a transfer creation whose request may have died: as its transfer, or with its hold given back. */
export class RecoverTransferReservationCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly intent: TransferIntent,
  ) {
    super();
  }
}
