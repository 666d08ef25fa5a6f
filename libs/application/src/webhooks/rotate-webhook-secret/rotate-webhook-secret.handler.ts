import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { webhookDecider, type ExistingWebhook } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { generateWebhookSecret, sealSigningKey, standardWebhooksSecret } from '../signing-key';
import { webhookStream } from '../streams';
import { loadWebhook, webhookAt } from '../webhook';
import { RotateWebhookSecretCommand, type RotatedWebhook } from './rotate-webhook-secret.command';

/** Only the new key, sealed, enters the event; the decider keeps the current one as the previous until its expiry. */
@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    context,
    entityId,
    webhookId,
    secret: given,
    expirePreviousIn,
  }: RotateWebhookSecretCommand): Promise<RotatedWebhook> {
    await loadWebhook(this.store, context.actor, entityId, webhookId);
    const secret = given ?? generateWebhookSecret();
    const command = {
      type: 'RotateWebhookSecret' as const,
      webhook_id: webhookId,
      signing_key: sealSigningKey(this.box, secret),
      expire_previous_in: expirePreviousIn,
      now: this.clock.now(),
    };
    const { state } = await handleCommand(this.store, webhookStream(webhookId), webhookDecider, command, context);
    return { webhook: webhookAt(state as ExistingWebhook, command.now), signingSecret: standardWebhooksSecret(secret) };
  }
}
