import { Command } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { CommandContext } from '../../command-handling';
import type { WebhookInput } from '../webhook';

export interface CreatedWebhook {
  readonly webhook: ExistingWebhook;
  /** The secret, when it was generated here: returned once, from this command only. */
  readonly generatedSecret: string | null;
}

/** Subscribes a URL to an entity's events. */
export class CreateWebhookCommand extends Command<CreatedWebhook> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly input: WebhookInput,
  ) {
    super();
  }
}
