import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { GetWebhookStatsQuery } from './get-webhook-stats.query';
import type { WebhookStats } from './webhook.presenter';
import { NO_DELIVERIES, type WebhookDocument } from './webhook.projection';

@QueryHandler(GetWebhookStatsQuery)
export class GetWebhookStatsHandler implements IQueryHandler<GetWebhookStatsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ webhookId }: GetWebhookStatsQuery): Promise<WebhookStats> {
    return (await this.readStore.get<WebhookDocument>('webhooks', webhookId))?.stats ?? NO_DELIVERIES;
  }
}
