import { Query } from '@nestjs/cqrs';
import type { WebhookStats } from './webhook.presenter';

/** A webhook's delivery statistics, counted by the delivery store per attempt logged (zeros before any). */
export class GetWebhookStatsQuery extends Query<WebhookStats> {
  constructor(readonly webhookId: string) {
    super();
  }
}
