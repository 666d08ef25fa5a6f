import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListWebhooksQuery } from './list-webhooks.query';
import type { WebhookDocument } from './webhook.projection';

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ organizationId, mode, entityId, page }: ListWebhooksQuery): Promise<Page<WebhookDocument>> {
    return this.readStore.find<WebhookDocument>('webhooks', { ...page, filter: { organization_id: organizationId, mode, entity_id: entityId } });
  }
}
