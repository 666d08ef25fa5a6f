import { Command } from '@nestjs/cqrs';
import type { NewPaymentDetail, PaymentDetailData } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export class AddPaymentDetailCommand extends Command<PaymentDetailData> {
  constructor(
    readonly context: CommandContext,
    readonly counterpartyId: string,
    readonly detail: NewPaymentDetail,
  ) {
    super();
  }
}
