import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/** Points a payment detail's id at its counterparty (the backfill of the payment-detail-index process manager). */
export class IndexPaymentDetailCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly paymentDetailId: string,
    readonly counterpartyId: string,
  ) {
    super();
  }
}
