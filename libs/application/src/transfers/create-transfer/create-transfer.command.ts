import { Command } from '@nestjs/cqrs';
import type { PaymentType, TransferRecord } from '@app/domain/transfers';
import type { CommandContext } from '../../command-handling';

export interface CreateTransferInput {
  readonly account_id: string;
  readonly payment_detail_id: string;
  readonly amount: number;
  readonly payment_type: PaymentType;
  readonly description: string | null;
  readonly unique_reference: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** `created` false: the reference was already used on the account, and this is that transfer (409). */
export interface CreatedTransfer {
  readonly transfer: TransferRecord;
  readonly created: boolean;
}

export class CreateTransferCommand extends Command<CreatedTransfer> {
  constructor(
    readonly context: CommandContext,
    readonly input: CreateTransferInput,
  ) {
    super();
  }
}
