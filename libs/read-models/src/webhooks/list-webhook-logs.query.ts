import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { WebhookLogDocument } from './webhook-log.projection';

export interface WebhookLogFilter {
  readonly organizationId: string;
  readonly mode: Mode;
  readonly entityId: string;
  readonly webhookId?: string;
  readonly event?: string;
  readonly status?: 'succeeded' | 'failed';
}

/** Delivery attempts of one entity's webhooks, newest first (GET /webhook-logs). */
export class ListWebhookLogsQuery extends Query<Page<WebhookLogDocument>> {
  constructor(
    readonly filter: WebhookLogFilter,
    readonly page: Omit<PageQuery, 'filter'>,
  ) {
    super();
  }
}
