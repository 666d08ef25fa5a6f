import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListAccountTransactionsQuery } from './list-account-transactions.query';
import type { StatementEntry } from './statement.projection';

@QueryHandler(ListAccountTransactionsQuery)
export class ListAccountTransactionsHandler implements IQueryHandler<ListAccountTransactionsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ accountId, mode, page }: ListAccountTransactionsQuery): Promise<Page<StatementEntry>> {
    return this.readStore.find<StatementEntry>('account_transactions', { filter: { account_id: accountId, mode }, limit: page.limit, before: page.before });
  }
}
