import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/** Ends the subscription: events after it are not routed, and pending deliveries are cancelled. */
export class DeleteWebhookCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}
