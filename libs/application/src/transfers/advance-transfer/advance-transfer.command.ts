import { Command } from '@nestjs/cqrs';
import type { AdvanceTarget, TransferRecord } from '@app/domain/transfers';
import type { CommandContext } from '../../command-handling';

/** A sandbox move (decisions §6); answers after the move's money is on the account streams (§2). */
export class AdvanceTransferCommand extends Command<TransferRecord> {
  constructor(
    readonly context: CommandContext,
    readonly transferId: string,
    readonly to: AdvanceTarget,
    readonly statusReason: string | null,
  ) {
    super();
  }
}
