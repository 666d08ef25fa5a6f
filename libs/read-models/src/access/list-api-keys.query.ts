import { Query } from '@nestjs/cqrs';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { ApiKeyDocument } from './api-key.projection';

/** The keys of one organization, newest first. */
export class ListApiKeysQuery extends Query<Page<ApiKeyDocument>> {
  constructor(
    readonly organizationId: string,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
