import type { Mode } from '@app/platform/event-store/event-mode';
import { Query } from '@nestjs/cqrs';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { EntityDocument } from './entity.projection';

export interface EntityListFilter {
  readonly organization_id: string;
  /** The caller's world: the other mode's entities never appear. */
  readonly mode: Mode;
  /** Set for an entity token: it lists only its own entity. */
  readonly entity_id?: string;
  readonly type?: 'individual' | 'business';
  readonly status?: string;
}

/** Entities of one organization, newest first. */
export class ListEntitiesQuery extends Query<Page<EntityDocument>> {
  constructor(
    readonly filter: EntityListFilter,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
