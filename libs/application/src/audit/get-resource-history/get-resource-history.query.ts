import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../command-handling';
import type { PublicEvent, ResourceStream } from '../../admin/list-organization-events/public-event';

export interface HistoryPage {
  readonly items: PublicEvent[];
  readonly hasMore: boolean;
}

/**
 * `GET /{collection}/{id}/history`: the events of one resource, oldest first, with their hashes
 * (decisions §10), a page at a time: at most `limit` from the revision after `afterRevision`
 * (docs/decisions/audit.md, "History pages").
 */
export class GetResourceHistoryQuery extends Query<HistoryPage> {
  constructor(
    readonly actor: Actor,
    readonly resource: ResourceStream,
    readonly id: string,
    readonly page: { readonly afterRevision: number; readonly limit: number },
  ) {
    super();
  }
}
