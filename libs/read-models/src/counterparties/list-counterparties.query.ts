import { Query } from '@nestjs/cqrs';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { CounterpartyDocument } from './counterparty.projection';

/** Counterparties of one organization, filtered (entity, type, status), newest first. */
export class ListCounterpartiesQuery extends Query<Page<CounterpartyDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string },
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
