import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { StatementEntry } from './statement.projection';

/**
 * An account's statement, newest first. It filters on the account (and mode): the caller checks that
 * the account is visible (by folding its stream) before asking.
 */
export class ListAccountTransactionsQuery extends Query<Page<StatementEntry>> {
  constructor(
    readonly accountId: string,
    readonly mode: Mode,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
