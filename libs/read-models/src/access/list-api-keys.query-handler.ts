import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import type { ApiKeyDocument } from './api-key.projection';
import { ListApiKeysQuery } from './list-api-keys.query';

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ organizationId, modes, page }: ListApiKeysQuery): Promise<Page<ApiKeyDocument>> {
    // Keys are the two worlds' only shared list: both modes, or just the one the caller manages.
    const mode = modes.length === 1 ? modes[0] : undefined;
    return this.readStore.find<ApiKeyDocument>('api_keys', {
      filter: { organization_id: organizationId, mode },
      limit: page.limit,
      before: page.before,
    });
  }
}
