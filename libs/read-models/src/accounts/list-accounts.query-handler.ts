import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import type { AccountDocument } from './account.projection';
import { ListAccountsQuery } from './list-accounts.query';

@QueryHandler(ListAccountsQuery)
export class ListAccountsHandler implements IQueryHandler<ListAccountsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListAccountsQuery): Promise<Page<AccountDocument>> {
    return this.readStore.find<AccountDocument>('accounts', {
      filter: { ...filter },
      limit: page.limit,
      before: page.before,
    });
  }
}
