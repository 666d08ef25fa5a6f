import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { WebhookView } from './webhook.presenter';

/** The webhooks of one entity, newest first (GET /entity-webhooks), each with its statistics. */
export class ListWebhooksQuery extends Query<Page<WebhookView>> {
  constructor(
    readonly organizationId: string,
    readonly mode: Mode,
    readonly entityId: string,
    readonly page: Omit<PageQuery, 'filter'>,
  ) {
    super();
  }
}
