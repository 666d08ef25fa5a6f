import { Query } from '@nestjs/cqrs';
import type { RefundRecord } from '@app/domain/collections';
import type { Actor } from '../../command-handling';

export interface RefundPage {
  readonly items: readonly RefundRecord[];
  readonly hasMore: boolean;
}

/**
 * GET /payment-intents/{id}/refunds (style A, newest first). Refunds live on the intent's stream,
 * which is short, so the list is folded from it: read-your-writes without a read model.
 */
export class ListRefundsQuery extends Query<RefundPage> {
  constructor(
    readonly actor: Actor,
    readonly paymentIntentId: string,
    readonly page: { readonly limit: number; readonly before?: string },
  ) {
    super();
  }
}
