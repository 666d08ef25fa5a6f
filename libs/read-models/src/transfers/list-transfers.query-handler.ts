import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListTransfersQuery } from './list-transfers.query';
import type { TransferDocument } from './transfer.projection';

@QueryHandler(ListTransfersQuery)
export class ListTransfersHandler implements IQueryHandler<ListTransfersQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListTransfersQuery): Promise<Page<TransferDocument>> {
    return this.readStore.find<TransferDocument>('transfers', { limit: page.limit, before: page.before, filter });
  }
}
