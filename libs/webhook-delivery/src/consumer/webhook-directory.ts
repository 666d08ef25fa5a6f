import { webhookIndexDecider, type WebhookIndexState } from '@app/domain';
import { webhookIndexStream, webhookStream } from '@app/application/webhooks';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { WebhookTimeline } from './webhook-timeline';

interface IndexEntry {
  state: WebhookIndexState;
  revision: number;
  coveredBefore: number;
}

/** Entities and webhooks kept in memory; the least recently used leave first. */
const CAPACITY = 20_000;

/**
 * Finds an entity's webhooks as they were at a log position, from the log alone: the entity's
 * index stream names them, each webhook stream gives its timeline. Both are cached and read on
 * from the revision folded; a read is needed only for an event beyond what the cache covers.
 * An event at position p arrives from the bus after it is in the log, so a read made then holds
 * every event before p, and the cache covers up to p from then on.
 */
export class WebhookDirectory {
  private readonly indexes = new Map<string, IndexEntry>();
  private readonly timelines = new Map<string, WebhookTimeline>();

  constructor(private readonly store: EventStore) {}

  async timelinesOf(entityId: string, position: number): Promise<WebhookTimeline[]> {
    const index = await this.index(entityId, position);
    return Promise.all(index.state.webhook_ids.map((id) => this.timeline(id, position)));
  }

  private async index(entityId: string, position: number): Promise<IndexEntry> {
    const entry = touch(this.indexes, entityId, () => ({
      state: webhookIndexDecider.initialState,
      revision: -1,
      coveredBefore: 0,
    }));
    if (entry.coveredBefore > position) return entry;
    const events = await this.store.readStream(webhookIndexStream(entityId), { fromRevision: entry.revision + 1 });
    for (const event of events) {
      if (event.revision <= entry.revision) continue;
      entry.state = webhookIndexDecider.evolve(entry.state, event as never);
      entry.revision = event.revision;
    }
    entry.coveredBefore = Math.max(entry.coveredBefore, position + 1);
    return entry;
  }

  private async timeline(webhookId: string, position: number): Promise<WebhookTimeline> {
    const timeline = touch(this.timelines, webhookId, () => new WebhookTimeline());
    if (timeline.coveredBefore > position) return timeline;
    timeline.extend(await this.store.readStream(webhookStream(webhookId), { fromRevision: timeline.revision + 1 }));
    timeline.coveredBefore = Math.max(timeline.coveredBefore, position + 1);
    return timeline;
  }
}

/** The cached value (made when missing), marked most recently used. */
function touch<V>(cache: Map<string, V>, key: string, make: () => V): V {
  const value = cache.get(key) ?? make();
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > CAPACITY) cache.delete(cache.keys().next().value as string);
  return value;
}
