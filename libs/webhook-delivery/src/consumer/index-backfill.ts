import type { WebhookEvent } from '@app/domain';
import { indexWebhook, WEBHOOK_INDEX_BACKFILL_STREAM } from '@app/application/webhooks';
import { reactionContext, systemActor, toAppend } from '@app/application/command-handling';
import { WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';

const PAGE = 1000;

/**
 * Lists in the index every webhook created before the index existed, once per deployment: the
 * worker runs it before it joins the consumer group, so no event is routed while an older
 * webhook is still missing from its entity's index. Reads the log up to its head at the start;
 * later creations index themselves (and the router repeats any it sees). A marker stream records
 * that it ran; two workers running it at once only index twice, which records nothing.
 */
export async function backfillWebhookIndex(store: EventStore): Promise<void> {
  if ((await store.readStream(WEBHOOK_INDEX_BACKFILL_STREAM)).length) return;
  const head = await store.headPosition();
  let indexed = 0;
  for (let after = 0; after < head;) {
    const page = await store.readAll({ after, limit: PAGE });
    if (!page.length) break;
    for (const event of page) {
      if (event.type !== 'WebhookCreated' || event.position > head) continue;
      const d = (event as unknown as Extract<WebhookEvent, { type: 'WebhookCreated' }>).data;
      await indexWebhook(store, reactionContext(event, 'webhook-index-backfill'), d.webhook_id, d.entity_id);
      indexed++;
    }
    after = page[page.length - 1].position;
  }
  await markDone(store, head);
  logger.info({ through: head, webhooks: indexed, component: 'webhooks' }, 'webhook index backfilled');
}

async function markDone(store: EventStore, through: number): Promise<void> {
  const context = {
    actor: systemActor('platform', 'webhook-index-backfill', 'sandbox'),
    correlationId: WEBHOOK_INDEX_BACKFILL_STREAM,
    causationId: WEBHOOK_INDEX_BACKFILL_STREAM,
  };
  try {
    await store.append(
      WEBHOOK_INDEX_BACKFILL_STREAM,
      [toAppend({ type: 'WebhookIndexBackfilled', data: { through } }, context, null)],
      'no_stream',
    );
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
}
