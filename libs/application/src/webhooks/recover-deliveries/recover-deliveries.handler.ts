import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DELIVERY_STORE, type DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { domainError } from '@app/domain';
import { DomainException } from '../../command-handling';
import { loadWebhook } from '../webhook';
import { RecoverDeliveriesCommand } from './recover-deliveries.command';

/**
 * The delivery store reopens the failed deliveries of the window in their queues (decisions §15):
 * they go through the usual retries and per-resource order, and nothing enters the log.
 */
@CommandHandler(RecoverDeliveriesCommand)
export class RecoverDeliveriesHandler implements ICommandHandler<RecoverDeliveriesCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId, webhookId, since, until }: RecoverDeliveriesCommand) {
    const now = this.clock.now();
    const to = until ?? now;
    if (to < since)
      throw new DomainException(
        domainError('validation', 'validation_error', 'until must not be before since', {
          errors: [{ field: 'until', message: 'until must not be before since' }],
        }),
      );
    await loadWebhook(this.store, context.actor, entityId, webhookId);
    return { scheduled: await this.deliveries.recover(webhookId, since, to + 1, now) };
  }
}
