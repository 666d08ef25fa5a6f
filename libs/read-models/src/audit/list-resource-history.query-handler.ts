import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { eventIndexId, shownEvent, type EventIndexDocument } from './event-index.projection';
import type { EventsPage } from './list-events.query';
import { ListResourceHistoryQuery } from './list-resource-history.query';

/**
 * A page of the event index filtered by the resource, in the caller's organization and mode: one
 * indexed query (organization, mode, resource_id) whatever the length of the resource's history,
 * where reading its stream cost the whole stream. The index waits for its projection like every
 * list, so the page includes every write acknowledged before it (decisions §2). Another world's
 * resource, or an id of another collection, has no events here: 404 as for any read by id.
 */
@QueryHandler(ListResourceHistoryQuery)
export class ListResourceHistoryHandler implements IQueryHandler<ListResourceHistoryQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ actor, resource, id, page }: ListResourceHistoryQuery): Promise<EventsPage> {
    // resource_id alone picks its index; the type is checked on the rows (ids carry their type's prefix).
    const filter = { organization_id: actor.organizationId, mode: actor.mode, resource_id: id };
    const found = await this.readStore.find<EventIndexDocument>('events', { filter, limit: page.limit, after: eventIndexId(page.afterPosition) });
    const items = found.items
      .reverse()
      .filter((d) => d.resource_type === resource.type)
      .map((d) => shownEvent(d.event));
    if (!items.length && !(await this.exists(filter, resource.type))) throw new DomainException(notFound(resource.type, id));
    return { items, hasMore: found.hasMore };
  }

  /** A page past the end is empty, not a 404, when the resource has events. */
  private async exists(filter: Record<string, string>, type: string): Promise<boolean> {
    const first = await this.readStore.find<EventIndexDocument>('events', { filter, limit: 1, after: eventIndexId(0) });
    return first.items.some((d) => d.resource_type === type);
  }
}
