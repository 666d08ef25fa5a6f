import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  DELIVERY_STORE,
  NO_DELIVERY_STATS,
  type DeliveryStore,
} from '@app/platform/delivery-store/delivery-store.port';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { webhookStatusAt } from '@app/domain';
import { ListWebhooksQuery } from './list-webhooks.query';
import type { WebhookView } from './webhook.presenter';
import type { WebhookDocument } from './webhook.projection';

/** Settings from the `webhooks` read model (the status as of the clock's now), statistics from the delivery store (one read for the page). */
@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, mode, entityId, page }: ListWebhooksQuery): Promise<Page<WebhookView>> {
    const found = await this.readStore.find<WebhookDocument>('webhooks', {
      ...page,
      filter: { organization_id: organizationId, mode, entity_id: entityId },
    });
    const stats = await this.deliveries.stats(found.items.map((w) => w.id));
    const now = this.clock.now();
    return {
      ...found,
      items: found.items.map((w) => ({
        ...w,
        status: webhookStatusAt(w, now),
        stats: stats.get(w.id) ?? NO_DELIVERY_STATS,
      })),
    };
  }
}
