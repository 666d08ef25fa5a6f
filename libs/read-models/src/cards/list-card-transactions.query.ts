import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { CardTransactionDocument } from './card-transaction.projection';

/** One card's transactions, newest first (the caller checked the card is visible). */
export class ListCardTransactionsQuery extends Query<Page<CardTransactionDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string; mode: Mode; card_id: string },
    readonly page: PageQuery,
  ) {
    super();
  }
}
