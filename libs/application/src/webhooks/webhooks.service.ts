import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { notFound, refuseTestEvent, refuseWebhookUrl, webhookDecider, type ExistingWebhook, type WebhookSettingsInput } from '@app/domain';
import { entityDecider } from '@app/domain/onboarding';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { DomainException, handleCommand, loadAggregate, type CommandContext } from '../command-handling';
import { refusePrivateDestination } from './destination';
import { generateWebhookSecret, sealSigningKey } from './signing-key';
import { isWebhookId, webhookStream } from './streams';

export type WebhookInput = Omit<WebhookSettingsInput, 'signing_key'> & { readonly secret?: string };

/** Builds the realistic `data` of a test event for a group and name (the API's presenters). */
export type TestSample = (group: string, name: string, entityId: string, context: CommandContext) => Promise<Record<string, unknown>>;

@Injectable()
export class WebhooksService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** The secret is returned only when it was generated here, and only from this call. */
  async create(context: CommandContext, entityId: string, input: WebhookInput): Promise<{ webhook: ExistingWebhook; generatedSecret: string | null }> {
    const entity = await loadAggregate(this.store, `entity-${entityId}`, entityDecider, context);
    if (!entity || entity.state.status === 'none') throw new DomainException(notFound('entity', entityId));
    await this.checkUrl(input.url);
    const secret = input.secret ?? generateWebhookSecret();
    const { secret: _given, ...settings } = input;
    const webhook_id = `whk_${ulid()}`;
    const { state } = await handleCommand(
      this.store,
      webhookStream(webhook_id),
      webhookDecider,
      { type: 'CreateWebhook', webhook_id, entity_id: entityId, settings: { ...settings, signing_key: sealSigningKey(this.box, secret) }, now: Date.now() },
      context,
      { entityId },
    );
    return { webhook: state as ExistingWebhook, generatedSecret: input.secret === undefined ? secret : null };
  }

  /** Folds the stream (read-your-writes); a webhook of another entity than the one named is not found. */
  async get(context: Pick<CommandContext, 'actor'>, entityId: string, webhookId: string): Promise<ExistingWebhook> {
    const loaded = isWebhookId(webhookId) ? await loadAggregate(this.store, webhookStream(webhookId), webhookDecider, context) : null;
    const state = loaded?.state;
    if (!state || (state.status !== 'active' && state.status !== 'inactive') || state.entity_id !== entityId) {
      throw new DomainException(notFound('webhook', webhookId));
    }
    return state;
  }

  async update(context: CommandContext, entityId: string, webhookId: string, changes: Partial<WebhookInput>): Promise<ExistingWebhook> {
    await this.get(context, entityId, webhookId);
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const { secret, ...rest } = changes;
    const sealed = secret === undefined ? {} : { signing_key: sealSigningKey(this.box, secret) };
    const { state } = await handleCommand(this.store, webhookStream(webhookId), webhookDecider, { type: 'UpdateWebhook', webhook_id: webhookId, changes: { ...rest, ...sealed }, now: Date.now() }, context);
    return state as ExistingWebhook;
  }

  /** Deliveries stop at once: every attempt checks the webhook right before it is made. */
  async delete(context: CommandContext, entityId: string, webhookId: string): Promise<void> {
    await this.get(context, entityId, webhookId);
    await handleCommand(this.store, webhookStream(webhookId), webhookDecider, { type: 'DeleteWebhook', webhook_id: webhookId, now: Date.now() }, context);
  }

  async requestTest(context: CommandContext, entityId: string, input: { webhook_id: string; event_group: string; event_name: string }, sample: TestSample): Promise<string> {
    const refused = refuseTestEvent(input.event_group, input.event_name);
    if (refused) throw new DomainException(refused);
    await this.get(context, entityId, input.webhook_id);
    const data = await sample(input.event_group, input.event_name, entityId, context);
    const event_id = `evt_${ulid()}`;
    const command = { type: 'RequestWebhookTest' as const, ...input, event_id, data, now: Date.now() };
    await handleCommand(this.store, webhookStream(input.webhook_id), webhookDecider, command, context);
    return event_id;
  }

  /** Shape first (domain), then where the host points; nothing is written when either refuses. */
  private async checkUrl(url: string): Promise<void> {
    const refused = refuseWebhookUrl(url);
    if (refused) throw new DomainException(refused);
    await refusePrivateDestination(url, this.config.webhookAllowPrivateNetworks);
  }
}
