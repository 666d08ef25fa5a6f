import { Query } from '@nestjs/cqrs';
import type { AttemptLogPage } from '@app/platform/delivery-store/delivery-store.port';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { PageQuery } from '@app/platform/read-store/read-store.port';

export interface WebhookLogFilter {
  readonly organizationId: string;
  readonly mode: Mode;
  readonly entityId: string;
  readonly webhookId?: string;
  readonly event?: string;
  readonly status?: 'succeeded' | 'failed';
}

/** Delivery attempts of one entity's webhooks, newest first (GET /webhook-logs), from the delivery store. */
export class ListWebhookLogsQuery extends Query<AttemptLogPage> {
  constructor(
    readonly filter: WebhookLogFilter,
    readonly page: Omit<PageQuery, 'filter'>,
  ) {
    super();
  }
}
