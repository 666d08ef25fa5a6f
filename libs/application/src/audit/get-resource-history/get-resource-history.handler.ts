import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException } from '../../command-handling/domain-exception';
import { visibleStream } from '../../command-handling/tenancy';
import { publicEvent, resourceOf, resourceStreamOf, type PublicEvent } from '../../operator/list-organization-events/public-event';
import { GetResourceHistoryQuery } from './get-resource-history.query';

/** Reads the stream from revision 0 (so older events carry their upcast hash), under the same tenancy as any read by id. */
@QueryHandler(GetResourceHistoryQuery)
export class GetResourceHistoryHandler implements IQueryHandler<GetResourceHistoryQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, resource, id }: GetResourceHistoryQuery): Promise<PublicEvent[]> {
    const streamId = resourceStreamOf(resource, id);
    const events = streamId && resourceOf(streamId)?.resource === resource ? visibleStream(await this.store.readStream(streamId), actor) : [];
    const history = events.map((e) => publicEvent(e)!).filter((e) => e.resource_id === id);
    if (!history.length) throw new DomainException(notFound(resource.type, id));
    return history;
  }
}
