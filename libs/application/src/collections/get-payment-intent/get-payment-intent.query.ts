import { Query } from '@nestjs/cqrs';
import type { PaymentIntentRecord } from '@app/domain/collections';
import type { Actor } from '../../command-handling';

/** One payment intent folded from its stream. */
export class GetPaymentIntentQuery extends Query<PaymentIntentRecord> {
  constructor(
    readonly actor: Actor,
    readonly paymentIntentId: string,
  ) {
    super();
  }
}
