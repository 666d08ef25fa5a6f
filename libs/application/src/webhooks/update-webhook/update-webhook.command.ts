import { Command } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { CommandContext } from '../../command-handling';
import type { WebhookInput } from '../webhook';

/** Changes the fields given; a new secret replaces the signing key. */
export class UpdateWebhookCommand extends Command<ExistingWebhook> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly webhookId: string,
    readonly changes: Partial<WebhookInput>,
  ) {
    super();
  }
}
