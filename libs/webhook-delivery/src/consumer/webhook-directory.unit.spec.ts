import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { TailWatcher, WatchedTail } from '@app/platform/log-reader/shared-tail';
import { WebhookDirectory } from './webhook-directory';
import { targetsAt } from './webhook-timeline';

/** The log as streams of events with global positions; counts reads and where they start. */
class FakeLog {
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly reads: Array<[string, number]> = [];
  private readonly log: RecordedEvent[] = [];
  private position = 0;
  /** Runs inside the next read, after its events are taken: a write that lands while a read is under way. */
  duringRead: (() => void) | null = null;

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
    this.log.push(events[events.length - 1]);
    return position;
  }

  /** The process's shared tail, which hands events on when told (`handOn`), in log order. */
  readonly tail = (() => {
    const watchers = new Set<TailWatcher>();
    const tail = {
      watchedUpTo: 0,
      watch: (watcher: TailWatcher) => (watchers.add(watcher), () => void watchers.delete(watcher)),
      handOn: () => {
        for (const event of this.log.filter((e) => e.position > tail.watchedUpTo)) {
          tail.watchedUpTo = event.position;
          watchers.forEach((w) => w.event(event));
        }
      },
      reopen: () => watchers.forEach((w) => w.reopened()),
    };
    return tail as WatchedTail & typeof tail;
  })();

  get store(): EventStore {
    return {
      readStream: async (streamId: string, options?: { fromRevision?: number }) => {
        this.reads.push([streamId, options?.fromRevision ?? 0]);
        const events = (this.streams.get(streamId) ?? []).filter((e) => e.revision >= (options?.fromRevision ?? 0));
        const during = this.duringRead;
        this.duringRead = null;
        during?.();
        return events;
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

  describe("with the process's shared tail", () => {
    const routed = async () => {
      const log = new FakeLog();
      const directory = new WebhookDirectory(log.store, log.tail);
      createWebhook(log, 'whk_a');
      const event = log.append('account-acc_1', 'AccountOpened', {});
      log.tail.handOn();
      expect(await routedTo(directory, event)).toEqual(['whk_a']);
      log.reads.length = 0;
      return { log, directory };
    };

    it('reads no cached stream again while the tail hands on none of its events, up to the routed one', async () => {
      const { log, directory } = await routed();
      for (let i = 0; i < 3; i++) {
        const event = log.append('account-acc_1', 'AccountFunded', {});
        log.tail.handOn();
        expect(await routedTo(directory, event)).toEqual(['whk_a']);
      }
      expect(log.reads).toEqual([]);
    });

    it('reads a stream again once the tail has handed on an event of it', async () => {
      const { log, directory } = await routed();
      log.append('webhook-whk_a', 'WebhookDeleted', { webhook_id: 'whk_a', entity_id: 'ent_1', deleted: 0 });
      createWebhook(log, 'whk_b');
      const event = log.append('account-acc_1', 'AccountFunded', {});
      log.tail.handOn();
      expect(await routedTo(directory, event)).toEqual(['whk_b']);
      expect(log.reads).toEqual([
        ['webhook-index-ent_1', 1],
        ['webhook-whk_a', 1],
        ['webhook-whk_b', 0],
      ]);
    });

    it('reads when the tail has not handed on the routed event yet, or opened again', async () => {
      const { log, directory } = await routed();
      const behind = log.append('account-acc_1', 'AccountFunded', {});
      await routedTo(directory, behind);
      expect(log.reads.map(([stream]) => stream)).toEqual(['webhook-index-ent_1', 'webhook-whk_a']);
      log.tail.handOn();
      log.reads.length = 0;
      log.tail.reopen();
      await routedTo(directory, log.append('account-acc_1', 'AccountFunded', {}) - 1);
      expect(log.reads.map(([stream]) => stream)).toEqual(['webhook-index-ent_1', 'webhook-whk_a']);
    });

    it('keeps a change the tail hands on while the stream is being read: the next routing reads it', async () => {
      const { log, directory } = await routed();
      const stale = log.append('account-acc_1', 'AccountFunded', {});
      log.tail.reopen();
      // The index is read, and meanwhile whk_b is created and handed on.
      log.duringRead = () => {
        createWebhook(log, 'whk_b');
        log.tail.handOn();
      };
      expect(await routedTo(directory, stale)).toEqual(['whk_a']);
      const event = log.append('account-acc_1', 'AccountFunded', {});
      log.tail.handOn();
      expect(await routedTo(directory, event)).toEqual(['whk_a', 'whk_b']);
    });
  });
});
