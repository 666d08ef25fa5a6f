import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  checkWebhookSettings,
  isDomainError,
  webhookDecider,
  type ExistingWebhook,
  type WebhookSettings,
} from '@app/domain';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { loadEntity } from '../../onboarding/entity';
import { generateWebhookSecret, sealSigningKey, standardWebhooksSecret } from '../signing-key';
import { webhookStream } from '../streams';
import { checkWebhookUrl, webhookAt } from '../webhook';
import { claimAuthorizationEndpoint } from '../authorization-endpoint';
import { CreateWebhookCommand, type CreatedWebhook } from './create-webhook.command';

/**
 * The webhook is listed in its entity's index before it is created, so the router, which finds
 * webhooks through the index, knows it for every event that follows its creation in the log.
 */
@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId, input }: CreateWebhookCommand): Promise<CreatedWebhook> {
    await loadEntity(this.store, context.actor, entityId);
    await checkWebhookUrl(input.url, this.config.webhookAllowPrivateNetworks);
    const { secret: given, ...settings } = input;
    const secret = given ?? generateWebhookSecret();
    const webhook_id = `whk_${ulid()}`;
    const command = {
      type: 'CreateWebhook' as const,
      webhook_id,
      entity_id: entityId,
      settings: { ...settings, signing_key: sealSigningKey(this.box, secret) },
      now: this.clock.now(),
    };
    // Refused settings must not leave an index entry behind (the decider checks them again).
    const checked = checkWebhookSettings(command.settings, command.now);
    if (isDomainError(checked)) throw new DomainException(checked);
    // Indexed, and claimed as the entity's authorization endpoint when it would be one (decisions §16), in one append.
    await claimAuthorizationEndpoint(
      this.store,
      context,
      { entityId, webhookId: webhook_id, creating: true },
      checked as WebhookSettings,
      command.now,
    );
    const { state } = await handleCommand(this.store, webhookStream(webhook_id), webhookDecider, command, context, {
      entityId,
    });
    return {
      webhook: webhookAt(state as ExistingWebhook, command.now),
      generatedSecret: given === undefined ? secret : null,
      signingSecret: standardWebhooksSecret(secret),
    };
  }
}
