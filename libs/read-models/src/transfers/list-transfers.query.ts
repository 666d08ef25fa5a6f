import { Query } from '@nestjs/cqrs';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { TransferDocument } from './transfer.projection';

/** Transfers of one entity (organization, entity, account, status), newest first. */
export class ListTransfersQuery extends Query<Page<TransferDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string; entity_id: string },
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
