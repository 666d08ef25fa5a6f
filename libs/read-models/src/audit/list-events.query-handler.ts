import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { eventIndexId, shownEvent, type EventIndexDocument } from './event-index.projection';
import { ListEventsQuery, type EventsPage } from './list-events.query';

@QueryHandler(ListEventsQuery)
export class ListEventsHandler implements IQueryHandler<ListEventsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /** Reading "after" an id walks towards newer documents: the oldest ones past the cursor, returned newest first. */
  async execute({ filter, page }: ListEventsQuery): Promise<EventsPage> {
    const range =
      page.createdFrom !== undefined || page.createdTo !== undefined
        ? { field: 'created', gte: page.createdFrom, lte: page.createdTo }
        : undefined;
    const found = await this.readStore.find<EventIndexDocument>('events', {
      filter: { ...filter },
      limit: page.limit,
      after: eventIndexId(page.afterPosition),
      range,
    });
    return { items: found.items.reverse().map((d) => shownEvent(d.event)), hasMore: found.hasMore };
  }
}
