import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { loadIntent } from '../load';
import { ListRefundsQuery, type RefundPage } from './list-refunds.query';

@QueryHandler(ListRefundsQuery)
export class ListRefundsHandler implements IQueryHandler<ListRefundsQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, paymentIntentId, page }: ListRefundsQuery): Promise<RefundPage> {
    const { refunds } = await loadIntent(this.store, actor, paymentIntentId);
    const newestFirst = [...refunds]
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .filter((r) => !page.before || r.id < page.before);
    return { items: newestFirst.slice(0, page.limit), hasMore: newestFirst.length > page.limit };
  }
}
