import { webhookIndexDecider } from '@app/domain';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, type CommandContext } from '../command-handling';
import { webhookIndexStream } from './streams';

/**
 * Lists a webhook under its entity. The creation writes it before `WebhookCreated`; the worker's
 * backfill and its router (on seeing a creation) repeat it for webhooks older than the index.
 * Indexing twice records nothing.
 */
export async function indexWebhook(
  store: EventStore,
  context: CommandContext,
  webhookId: string,
  entityId: string,
): Promise<void> {
  const command = { type: 'IndexWebhook' as const, webhook_id: webhookId, entity_id: entityId };
  await handleCommand(store, webhookIndexStream(entityId), webhookIndexDecider, command, context, { entityId });
}
