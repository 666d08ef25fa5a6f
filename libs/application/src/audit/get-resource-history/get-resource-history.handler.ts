import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException } from '../../command-handling/domain-exception';
import { visibleStream } from '../../command-handling/tenancy';
import { publicEvent, resourceOf, resourceStreamOf } from '../../admin/list-organization-events/public-event';
import { GetResourceHistoryQuery, type HistoryPage } from './get-resource-history.query';

/**
 * Reads one page of the resource's stream, as the log holds it now (an event rewritten in the log
 * shows rewritten, as the verification will report it), never folded: `limit` + 1 events from the
 * revision after the cursor, so a page costs its size whatever the stream's length. Tenancy is
 * the stream's owner's (its first event), as for any read by id: another world's resource is 404.
 */
@QueryHandler(GetResourceHistoryQuery)
export class GetResourceHistoryHandler implements IQueryHandler<GetResourceHistoryQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, resource, id, page }: GetResourceHistoryQuery): Promise<HistoryPage> {
    const streamId = resourceStreamOf(resource, id);
    if (!streamId || resourceOf(streamId)?.resource !== resource)
      throw new DomainException(notFound(resource.type, id));
    const fromRevision = page.afterRevision + 1;
    const read = await this.store.readStream(streamId, { fromRevision, maxCount: page.limit + 1 });
    const first = fromRevision === 0 ? read.slice(0, 1) : await this.store.readStream(streamId, { maxCount: 1 });
    if (!visibleStream(first, actor).length) throw new DomainException(notFound(resource.type, id));
    // A keyed transfer stream shows only the transfer the id names (public-event.ts).
    const items = read
      .slice(0, page.limit)
      .map((e) => publicEvent(e)!)
      .filter((e) => e.resource_id === id);
    if (!items.length && (fromRevision === 0 || publicEvent(first[0])?.resource_id !== id))
      throw new DomainException(notFound(resource.type, id));
    return { items, hasMore: read.length > page.limit };
  }
}
