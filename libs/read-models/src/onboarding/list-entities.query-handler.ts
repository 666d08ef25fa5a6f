import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import type { EntityDocument } from './entity.projection';
import { ListEntitiesQuery } from './list-entities.query';

@QueryHandler(ListEntitiesQuery)
export class ListEntitiesHandler implements IQueryHandler<ListEntitiesQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListEntitiesQuery): Promise<Page<EntityDocument>> {
    return this.readStore.find<EntityDocument>('entities', {
      filter: { ...filter },
      limit: page.limit,
      before: page.before,
    });
  }
}
