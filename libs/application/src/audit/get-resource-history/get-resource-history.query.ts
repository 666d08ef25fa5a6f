import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../command-handling';
import type { PublicEvent, ResourceStream } from '../../operator/list-organization-events/public-event';

/** `GET /{collection}/{id}/history`: every event of one resource, oldest first, with its hash (decisions §10). */
export class GetResourceHistoryQuery extends Query<PublicEvent[]> {
  constructor(
    readonly actor: Actor,
    readonly resource: ResourceStream,
    readonly id: string,
  ) {
    super();
  }
}
