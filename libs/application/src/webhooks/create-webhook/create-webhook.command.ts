import { Command } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { CommandContext } from '../../command-handling';
import type { WebhookInput } from '../webhook';

export interface CreatedWebhook {
  readonly webhook: ExistingWebhook;
  /** The secret, when it was generated here: returned once, from this command only. */
  readonly generatedSecret: string | null;
  /**
   * `whsec_` + base64(SHA-512(secret)), what a Standard Webhooks library verifies with (decisions
   * §9). Derived here from the secret the command holds, for the creation response only: it is
   * the HMAC key, so it never enters an event or a read model in clear.
   */
  readonly signingSecret: string;
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
