import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { webhookDecider } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { webhookStream } from '../streams';
import { loadWebhook } from '../webhook';
import { DeleteWebhookCommand } from './delete-webhook.command';

/** Deliveries stop at once: every attempt checks the webhook right before it is made. */
@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId, webhookId }: DeleteWebhookCommand): Promise<void> {
    await loadWebhook(this.store, context.actor, entityId, webhookId);
    await handleCommand(
      this.store,
      webhookStream(webhookId),
      webhookDecider,
      { type: 'DeleteWebhook', webhook_id: webhookId, now: this.clock.now() },
      context,
    );
  }
}
