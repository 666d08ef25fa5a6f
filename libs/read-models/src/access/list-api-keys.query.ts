import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { ApiKeyDocument } from './api-key.projection';

/** The keys of one organization in the worlds the caller manages, newest first. */
export class ListApiKeysQuery extends Query<Page<ApiKeyDocument>> {
  constructor(
    readonly organizationId: string,
    readonly modes: readonly Mode[],
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
