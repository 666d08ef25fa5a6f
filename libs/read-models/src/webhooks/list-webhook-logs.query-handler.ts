import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  DELIVERY_STORE,
  type AttemptLogPage,
  type DeliveryStore,
} from '@app/platform/delivery-store/delivery-store.port';
import { ListWebhookLogsQuery } from './list-webhook-logs.query';

/**
 * Reads the delivery store, where the worker logs each attempt (and where the attempts an older
 * log recorded were imported): the logs are not a projection of the event log any more, so this
 * list has no read model to wait for.
 */
@QueryHandler(ListWebhookLogsQuery)
export class ListWebhookLogsHandler implements IQueryHandler<ListWebhookLogsQuery> {
  constructor(@Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore) {}

  execute({ filter: f, page }: ListWebhookLogsQuery): Promise<AttemptLogPage> {
    const filter = {
      organization_id: f.organizationId,
      mode: f.mode,
      entity_id: f.entityId,
      webhook_id: f.webhookId,
      event: f.event,
      status: f.status,
    };
    return this.deliveries.logs(filter, { limit: page.limit, before: page.before });
  }
}
