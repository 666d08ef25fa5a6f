import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/platform/event-store/event-store.port';
import { ListOrganizationEventsQuery, type OrganizationEventsPage } from './list-organization-events.query';
import { publicEvent, type PublicEvent } from './public-event';

const BATCH = 500;
/** At most this many log events are read per request, so one page of a quiet organization costs a bounded scan. */
export const MAX_SCANNED = 10_000;

/**
 * Reads the global log from the cursor and keeps this organization's resource events. There is no
 * per-organization index: a page costs a scan of the log from the cursor, bounded by MAX_SCANNED;
 * past it the page is short (possibly empty) with `has_more` and a cursor at the scanned position.
 * Fine for an operator's occasional look; an audit feed at volume wants a read model (docs).
 */
@QueryHandler(ListOrganizationEventsQuery)
export class ListOrganizationEventsHandler implements IQueryHandler<ListOrganizationEventsQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ organizationId, page }: ListOrganizationEventsQuery): Promise<OrganizationEventsPage> {
    const items: PublicEvent[] = [];
    let after = page.after;
    for (let scanned = 0; scanned < MAX_SCANNED;) {
      const batch = await this.store.readAll({ after, limit: BATCH });
      if (!batch.length) return { items, hasMore: false, nextPosition: null };
      for (const recorded of batch) {
        const event = ofOrganization(recorded, organizationId);
        if (event && items.length === page.limit)
          return { items, hasMore: true, nextPosition: items[items.length - 1].position };
        if (event) items.push(event);
        after = recorded.position;
      }
      scanned += batch.length;
    }
    return { items, hasMore: true, nextPosition: after };
  }
}

function ofOrganization(recorded: RecordedEvent, organizationId: string): PublicEvent | null {
  return recorded.metadata.organization_id === organizationId ? publicEvent(recorded) : null;
}
