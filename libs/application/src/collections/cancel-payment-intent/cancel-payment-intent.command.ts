import { Command } from '@nestjs/cqrs';
import type { PaymentIntentRecord } from '@app/domain/collections';
import type { CommandContext } from '../../command-handling';

/** PATCH /payment-intents/{id} with `action: cancel`: only from `requires_action` (else 409). */
export class CancelPaymentIntentCommand extends Command<PaymentIntentRecord> {
  constructor(
    readonly context: CommandContext,
    readonly paymentIntentId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}
