import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { loadWebhook } from '../webhook';
import { GetWebhookQuery } from './get-webhook.query';

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  execute({ actor, entityId, webhookId }: GetWebhookQuery): Promise<ExistingWebhook> {
    return loadWebhook(this.store, actor, entityId, webhookId);
  }
}
