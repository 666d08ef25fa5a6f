import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';

export interface WebhookTestInput {
  readonly webhook_id: string;
  readonly event_group: string;
  readonly event_name: string;
}

/** Asks for a test delivery to one webhook; the result is the test event's id. */
export class RequestWebhookTestCommand extends Command<string> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly input: WebhookTestInput,
  ) {
    super();
  }
}
