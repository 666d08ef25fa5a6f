import { Query } from '@nestjs/cqrs';
import type { PublicEvent } from './public-event';

export interface OrganizationEventsPage {
  readonly items: PublicEvent[];
  readonly hasMore: boolean;
  /** The log position to read on from: past the last event returned, or past what was scanned. */
  readonly nextPosition: number | null;
}

/** The history of every mode of one organization, oldest first, from after a log position (decisions §11). */
export class ListOrganizationEventsQuery extends Query<OrganizationEventsPage> {
  constructor(
    readonly organizationId: string,
    readonly page: { readonly after: number; readonly limit: number },
  ) {
    super();
  }
}
