import { Command } from '@nestjs/cqrs';
import type { TransferRecord } from '@app/domain/transfers';
import type { CommandContext } from '../../command-handling';

/** The customer's cancel of a pending payout (decisions §14); answers after its hold is released (§2). */
export class CancelTransferCommand extends Command<TransferRecord> {
  constructor(
    readonly context: CommandContext,
    readonly transferId: string,
    /** The caller's entity: another entity's transfer is not found, as for GET. */
    readonly entityId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}
