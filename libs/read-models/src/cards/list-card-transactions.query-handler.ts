import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListCardTransactionsQuery } from './list-card-transactions.query';
import type { CardTransactionDocument } from './card-transaction.projection';

@QueryHandler(ListCardTransactionsQuery)
export class ListCardTransactionsHandler implements IQueryHandler<ListCardTransactionsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListCardTransactionsQuery): Promise<Page<CardTransactionDocument>> {
    return this.readStore.find<CardTransactionDocument>('card_transactions', { ...page, filter });
  }
}
