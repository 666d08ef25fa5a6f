import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { domainError, webhookStatusAt } from '@app/domain';
import { DELIVERY_STORE, type DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException } from '../../command-handling';
import { derivedUlid } from '../streams';
import { loadWebhook } from '../webhook';
import { ResendDeliveryCommand } from './resend-delivery.command';

/**
 * A resend is a new row of the delivery store, never an event in the log (decisions §15): the
 * delivery of (event, webhook) is found by its derived id, so an event the webhook was never due
 * (not subscribed, before its creation, another entity or mode) has none and answers 404.
 */
@CommandHandler(ResendDeliveryCommand)
export class ResendDeliveryHandler implements ICommandHandler<ResendDeliveryCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DELIVERY_STORE) private readonly deliveries: DeliveryStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId, webhookId, eventId }: ResendDeliveryCommand) {
    const webhook = await loadWebhook(this.store, context.actor, entityId, webhookId);
    const original = await this.deliveries.get(`whd_${derivedUlid(eventId, webhookId)}`);
    const { organizationId, mode } = context.actor;
    if (
      !original ||
      original.organization_id !== organizationId ||
      original.mode !== mode ||
      original.entity_id !== entityId
    ) {
      throw new DomainException(
        domainError('not_found', 'event_not_found', `Event ${eventId} was never due to webhook ${webhookId}`),
      );
    }
    // As for test events: an inactive webhook would only pause it.
    if (webhookStatusAt(webhook, this.clock.now()) !== 'active') {
      throw new DomainException(
        domainError('rule', 'webhook_inactive', `Webhook ${webhookId} is inactive; activate it to resend`),
      );
    }
    const outcome = await this.deliveries.resend(original.id, `whd_${ulid()}`, this.clock.now());
    if ('refused' in outcome) {
      throw new DomainException(
        domainError(
          'conflict',
          'delivery_pending',
          `The delivery of ${eventId} to ${webhookId} is still being retried; resend it once it has ended`,
        ),
      );
    }
    return { webhook_id: webhookId, event_id: eventId };
  }
}
