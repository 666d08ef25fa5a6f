import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { loadWebhook, webhookAt } from '../webhook';
import { GetWebhookQuery } from './get-webhook.query';

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ actor, entityId, webhookId }: GetWebhookQuery): Promise<ExistingWebhook> {
    return webhookAt(await loadWebhook(this.store, actor, entityId, webhookId), this.clock.now());
  }
}
