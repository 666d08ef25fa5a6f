import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListWebhookLogsQuery } from './list-webhook-logs.query';
import type { WebhookLogDocument } from './webhook-log.projection';

@QueryHandler(ListWebhookLogsQuery)
export class ListWebhookLogsHandler implements IQueryHandler<ListWebhookLogsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter: f, page }: ListWebhookLogsQuery): Promise<Page<WebhookLogDocument>> {
    const filter = { organization_id: f.organizationId, mode: f.mode, entity_id: f.entityId, webhook_id: f.webhookId, event: f.event, status: f.status };
    return this.readStore.find<WebhookLogDocument>('webhook_logs', { ...page, filter });
  }
}
