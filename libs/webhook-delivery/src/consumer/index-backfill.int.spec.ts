import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookDecider } from '@app/domain';
import { handleCommand, systemActor, type CommandContext } from '@app/application/command-handling';
import { WEBHOOK_INDEX_BACKFILL_STREAM, webhookIndexStream, webhookStream } from '@app/application/webhooks';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { backfillWebhookIndex } from './index-backfill';
import { WebhookDirectory } from './webhook-directory';

/** Webhooks created before the index existed (no index entry) are found after the backfill. */
describe('webhook index backfill', () => {
  let dir: string;
  let store: SqliteEventStore;
  const context: CommandContext = {
    actor: systemActor('org_a', 'test', 'sandbox'),
    correlationId: 'c',
    causationId: 'c',
  };
  const settings = {
    url: 'https://hooks.example.com/in',
    expires_in: null,
    enabled_events: { all: true },
    signing_key: 'sealed',
    description: null,
    tags: [],
    status: 'active' as const,
  };

  /** As the API wrote webhooks before the index: the webhook stream alone. */
  const legacyWebhook = (webhook_id: string, entity_id: string) =>
    handleCommand(
      store,
      webhookStream(webhook_id),
      webhookDecider,
      { type: 'CreateWebhook', webhook_id, entity_id, settings, now: 1 },
      context,
      { entityId: entity_id },
    );

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-backfill-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes every earlier creation under its entity, once, and marks that it ran', async () => {
    await legacyWebhook('whk_1', 'ent_1');
    await legacyWebhook('whk_2', 'ent_2');
    await legacyWebhook('whk_3', 'ent_1');
    const head = await store.headPosition();
    expect(await new WebhookDirectory(store).timelinesOf('ent_1', head + 1)).toEqual([]);

    await backfillWebhookIndex(store);
    const ids = async (entity: string) =>
      (await store.readStream(webhookIndexStream(entity))).map((e) => e.data.webhook_id);
    expect(await ids('ent_1')).toEqual(['whk_1', 'whk_3']);
    expect(await ids('ent_2')).toEqual(['whk_2']);
    expect((await new WebhookDirectory(store).timelinesOf('ent_1', head + 1)).length).toBe(2);
    expect((await store.readStream(WEBHOOK_INDEX_BACKFILL_STREAM)).map((e) => e.data)).toEqual([{ through: head }]);

    // A second start finds the marker and reads no further.
    await legacyWebhook('whk_4', 'ent_1');
    await backfillWebhookIndex(store);
    expect(await ids('ent_1')).toEqual(['whk_1', 'whk_3']);
  });
});
