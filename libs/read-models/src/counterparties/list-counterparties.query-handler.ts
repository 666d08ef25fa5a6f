import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import type { CounterpartyDocument } from './counterparty.projection';
import { ListCounterpartiesQuery } from './list-counterparties.query';

@QueryHandler(ListCounterpartiesQuery)
export class ListCounterpartiesHandler implements IQueryHandler<ListCounterpartiesQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListCounterpartiesQuery): Promise<Page<CounterpartyDocument>> {
    return this.readStore.find<CounterpartyDocument>('counterparties', {
      limit: page.limit,
      before: page.before,
      filter,
    });
  }
}
