import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { IntentActionDocument } from './intent-action.projection';

/** Intent actions (organization, mode, and the spec's filters), newest first, style B. */
export class ListIntentActionsQuery extends Query<Page<IntentActionDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string; mode: Mode },
    readonly page: Pick<PageQuery, 'limit' | 'before' | 'after' | 'range'>,
  ) {
    super();
  }
}
