import { Command } from '@nestjs/cqrs';
import type { RefundRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/** POST /payment-intents/{id}/refunds (decisions §7); `amount` null: what is left. */
export class RefundPaymentIntentCommand extends Command<RefundRecord> {
  constructor(
    readonly context: CommandContext,
    readonly paymentIntentId: string,
    readonly amount: number | null,
    readonly reason: string | null,
  ) {
    super();
  }
}
