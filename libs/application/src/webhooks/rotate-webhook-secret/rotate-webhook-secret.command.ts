import { Command } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export interface RotatedWebhook {
  readonly webhook: ExistingWebhook;
  /** The new Standard Webhooks key (`whsec_…`), returned once. */
  readonly signingSecret: string;
}

/** Decisions §15: a new secret (given or generated); the current one stays valid `expirePreviousIn` seconds. */
export class RotateWebhookSecretCommand extends Command<RotatedWebhook> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly webhookId: string,
    readonly secret: string | undefined,
    readonly expirePreviousIn: number,
  ) {
    super();
  }
}
