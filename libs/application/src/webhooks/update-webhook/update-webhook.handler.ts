import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkWebhookSettings, isDomainError, webhookDecider, type ExistingWebhook } from '@app/domain';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { sealSigningKey } from '../signing-key';
import { webhookStream } from '../streams';
import { checkWebhookUrl, loadWebhook, webhookAt } from '../webhook';
import { claimAuthorizationEndpoint } from '../authorization-endpoint';
import { UpdateWebhookCommand } from './update-webhook.command';

@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, entityId, webhookId, changes }: UpdateWebhookCommand): Promise<ExistingWebhook> {
    const current = await loadWebhook(this.store, context.actor, entityId, webhookId);
    if (changes.url !== undefined) await checkWebhookUrl(changes.url, this.config.webhookAllowPrivateNetworks);
    const { secret, ...rest } = changes;
    const sealed = secret === undefined ? {} : { signing_key: sealSigningKey(this.box, secret) };
    const command = {
      type: 'UpdateWebhook' as const,
      webhook_id: webhookId,
      changes: { ...rest, ...sealed },
      now: this.clock.now(),
    };
    // Decisions §16: subscribing (or setting active again) must not make a second authorization endpoint.
    const checked = checkWebhookSettings(command.changes, command.now);
    if (!isDomainError(checked))
      await claimAuthorizationEndpoint(
        this.store,
        context,
        { entityId, webhookId, creating: false },
        { ...current, ...checked },
        command.now,
      );
    const { state } = await handleCommand(this.store, webhookStream(webhookId), webhookDecider, command, context);
    return webhookAt(state as ExistingWebhook, command.now);
  }
}
