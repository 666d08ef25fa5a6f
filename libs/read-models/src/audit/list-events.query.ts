import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { PublicEvent } from '@app/application/admin/list-organization-events/public-event';

export interface EventFilter {
  readonly organization_id: string;
  readonly mode: Mode;
  readonly type?: string;
  readonly resource_type?: string;
  readonly resource_id?: string;
  readonly entity_id?: string;
}

export interface EventsPage {
  readonly items: PublicEvent[];
  readonly hasMore: boolean;
}

/** Oldest first, strictly after a log position (the cursor or `after_position`), within `created` bounds. */
export class ListEventsQuery extends Query<EventsPage> {
  constructor(
    readonly filter: EventFilter,
    readonly page: {
      readonly afterPosition: number;
      readonly limit: number;
      readonly createdFrom?: number;
      readonly createdTo?: number;
    },
  ) {
    super();
  }
}
