import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { WebhookDirectory } from './webhook-directory';
import { targetsAt } from './webhook-timeline';

/** The log as streams of events with global positions; counts reads and where they start. */
class FakeLog {
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly reads: Array<[string, number]> = [];
  private position = 0;

  append(streamId: string, type: string, data: Record<string, unknown>): number {
    const events = this.streams.get(streamId) ?? [];
    const position = (this.position += 10);
    events.push({
      id: `e${position}`,
      streamId,
      type,
      data,
      revision: events.length,
      position,
      metadata: { organization_id: 'org_1' },
    } as unknown as RecordedEvent);
    this.streams.set(streamId, events);
    return position;
  }

  get store(): EventStore {
    return {
      readStream: async (streamId: string, options?: { fromRevision?: number }) => {
        this.reads.push([streamId, options?.fromRevision ?? 0]);
        return (this.streams.get(streamId) ?? []).filter((e) => e.revision >= (options?.fromRevision ?? 0));
      },
    } as unknown as EventStore;
  }
}

const settings = {
  url: 'https://hooks.example.com',
  expires_in: null,
  expires_at: null,
  signing_key: 's',
  description: null,
  tags: [],
  status: 'active',
  enabled_events: { all: true },
};

function createWebhook(log: FakeLog, id: string): number {
  log.append('webhook-index-ent_1', 'WebhookIndexed', { webhook_id: id, entity_id: 'ent_1' });
  return log.append(`webhook-${id}`, 'WebhookCreated', { ...settings, webhook_id: id, entity_id: 'ent_1', created: 0 });
}

const routedTo = async (directory: WebhookDirectory, position: number) =>
  targetsAt(
    await directory.timelinesOf('ent_1', position),
    { position, organizationId: 'org_1', mode: 'sandbox', occurredAt: 0 },
    'accounts.created',
  ).map((w) => w.id);

describe('webhook directory (index stream + webhook streams, no read model)', () => {
  it('finds a webhook created just before an event, and not one deleted just before', async () => {
    const log = new FakeLog();
    const directory = new WebhookDirectory(log.store);
    createWebhook(log, 'whk_a');
    createWebhook(log, 'whk_b');
    log.append('webhook-whk_b', 'WebhookDeleted', { webhook_id: 'whk_b', entity_id: 'ent_1', deleted: 0 });
    const event = log.append('account-acc_1', 'AccountOpened', {});
    expect(await routedTo(directory, event)).toEqual(['whk_a']);
  });

  it('reads on from the cached revision, and not at all for an event the cache covers', async () => {
    const log = new FakeLog();
    const directory = new WebhookDirectory(log.store);
    createWebhook(log, 'whk_a');
    const first = log.append('account-acc_1', 'AccountOpened', {});
    await routedTo(directory, first);
    log.reads.length = 0;
    expect(await routedTo(directory, first - 1)).toEqual(['whk_a']);
    expect(log.reads).toEqual([]);

    createWebhook(log, 'whk_b');
    const second = log.append('account-acc_1', 'AccountFunded', {});
    expect(await routedTo(directory, second)).toEqual(['whk_a', 'whk_b']);
    expect(log.reads).toEqual([
      ['webhook-index-ent_1', 1],
      ['webhook-whk_a', 1],
      ['webhook-whk_b', 0],
    ]);
    // An older event routed late (another partition) still sees the webhooks as they were then.
    expect(await routedTo(directory, first)).toEqual(['whk_a']);
  });

  it('routes nothing to an index entry whose creation never followed', async () => {
    const log = new FakeLog();
    log.append('webhook-index-ent_1', 'WebhookIndexed', { webhook_id: 'whk_lost', entity_id: 'ent_1' });
    const event = log.append('account-acc_1', 'AccountOpened', {});
    expect(await routedTo(new WebhookDirectory(log.store), event)).toEqual([]);
  });
});
