import { Query } from '@nestjs/cqrs';
import type { Actor } from '@app/application/command-handling';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { StatementEntry } from './statement.projection';

/** An account's statement, newest first, as `actor` may see it (its organization, mode and entity). */
export class ListAccountTransactionsQuery extends Query<Page<StatementEntry>> {
  constructor(
    readonly actor: Actor,
    readonly accountId: string,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
