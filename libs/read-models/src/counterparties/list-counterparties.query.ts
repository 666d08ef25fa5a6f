import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { CounterpartyDocument } from './counterparty.projection';

/** Counterparties of one organization and mode, filtered (entity, type, status), newest first. */
export class ListCounterpartiesQuery extends Query<Page<CounterpartyDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string; mode: Mode },
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
