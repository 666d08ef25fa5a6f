import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  DELIVERY_STORE,
  NO_DELIVERY_STATS,
  type DeliveryStore,
} from '@app/platform/delivery-store/delivery-store.port';
import { GetWebhookStatsQuery } from './get-webhook-stats.query';
import type { WebhookStats } from './webhook.presenter';

@QueryHandler(GetWebhookStatsQuery)
export class GetWebhookStatsHandler implements IQueryHandler<GetWebhookStatsQuery> {
  constructor(@Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore) {}

  async execute({ webhookId }: GetWebhookStatsQuery): Promise<WebhookStats> {
    return (await this.deliveries.stats([webhookId])).get(webhookId) ?? NO_DELIVERY_STATS;
  }
}
