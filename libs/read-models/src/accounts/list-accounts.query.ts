import type { Mode } from '@app/platform/event-store/event-mode';
import { Query } from '@nestjs/cqrs';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { AccountDocument } from './account.projection';

export interface AccountListFilter {
  readonly organization_id: string;
  /** The caller's world: the other mode's accounts never appear. */
  readonly mode: Mode;
  readonly entity_id?: string;
  readonly currency?: string;
}

/** Accounts of one organization (or one entity), newest first. */
export class ListAccountsQuery extends Query<Page<AccountDocument>> {
  constructor(
    readonly filter: AccountListFilter,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
