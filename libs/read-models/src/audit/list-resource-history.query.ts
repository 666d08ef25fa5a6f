import { Query } from '@nestjs/cqrs';
import type { Actor } from '@app/application/command-handling';
import type { ResourceStream } from '@app/application/operator/list-organization-events/public-event';
import type { EventsPage } from './list-events.query';

/**
 * `GET /{collection}/{id}/history` (decisions §10): one resource's events, oldest first, with their
 * hashes, a page at a time strictly after a log position (docs/decisions/audit.md, "History pages").
 */
export class ListResourceHistoryQuery extends Query<EventsPage> {
  constructor(
    readonly actor: Actor,
    readonly resource: ResourceStream,
    readonly id: string,
    readonly page: { readonly afterPosition: number; readonly limit: number },
  ) {
    super();
  }
}
