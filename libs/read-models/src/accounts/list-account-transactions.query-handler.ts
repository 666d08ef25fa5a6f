import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { DomainException, forbidden, visibility } from '@app/application/command-handling';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import type { AccountDocument } from './account.projection';
import { ListAccountTransactionsQuery } from './list-account-transactions.query';
import type { StatementEntry } from './statement.projection';

@QueryHandler(ListAccountTransactionsQuery)
export class ListAccountTransactionsHandler implements IQueryHandler<ListAccountTransactionsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /**
   * Tenancy from the account's document, as GET /accounts/{id} answers it (another organization's or mode's: not found, another
   * entity's: forbidden). Not from a fold of its stream: a fold reads every event other processes appended since this one last
   * looked (a worker's thousands of settles), so a page's first call cost 143 ms at 50,000 payouts; the document is one row,
   * read-your-writes as the page (issue 26: every read costs its page).
   */
  async execute({ actor, accountId, page }: ListAccountTransactionsQuery): Promise<Page<StatementEntry>> {
    const account = await this.readStore.get<AccountDocument>('accounts', accountId);
    const seen = account ? visibility(account, actor) : 'not_found';
    if (seen === 'forbidden') throw forbidden();
    if (seen === 'not_found') throw new DomainException(notFound('account', accountId));
    return this.readStore.find<StatementEntry>('account_transactions', {
      filter: { account_id: accountId, mode: actor.mode },
      limit: page.limit,
      before: page.before,
    });
  }
}
