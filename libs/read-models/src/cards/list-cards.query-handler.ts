import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListCardsQuery } from './list-cards.query';
import type { CardDocument } from './card.projection';

@QueryHandler(ListCardsQuery)
export class ListCardsHandler implements IQueryHandler<ListCardsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListCardsQuery): Promise<Page<CardDocument>> {
    return this.readStore.find<CardDocument>('cards', { ...page, filter });
  }
}
