import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

/** Decisions §15: one new attempt of an event this webhook was due, at once. */
export class ResendDeliveryCommand extends Command<{ readonly webhook_id: string; readonly event_id: string }> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly webhookId: string,
    readonly eventId: string,
  ) {
    super();
  }
}
