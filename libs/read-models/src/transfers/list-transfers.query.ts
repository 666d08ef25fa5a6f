import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Filter, Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { TransferDocument } from './transfer.projection';

/** Transfers of one entity (organization, mode, entity, account, status), newest first. */
export class ListTransfersQuery extends Query<Page<TransferDocument>> {
  constructor(
    readonly filter: Filter & { organization_id: string; mode: Mode; entity_id: string },
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
