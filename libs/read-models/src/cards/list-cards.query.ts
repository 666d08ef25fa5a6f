import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { CardDocument } from './card.projection';

/** Cards of an entity or an account, soft-deleted ones excluded, newest first. */
export class ListCardsQuery extends Query<Page<CardDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string; mode: Mode; deleted: false },
    readonly page: PageQuery,
  ) {
    super();
  }
}
