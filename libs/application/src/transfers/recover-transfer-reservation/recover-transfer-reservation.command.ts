import { Command } from '@nestjs/cqrs';
import type { TransferIntent } from '@app/domain/transfers';
import type { CommandContext } from '../../command-handling';

/** Ends a reservation whose request may have died: as its transfer, or voided with the hold given back. */
export class RecoverTransferReservationCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly intent: TransferIntent,
  ) {
    super();
  }
}
