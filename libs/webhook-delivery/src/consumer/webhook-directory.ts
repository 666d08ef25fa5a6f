import { webhookIndexDecider, type WebhookIndexState } from '@app/domain';
import { webhookIndexStream, webhookStream } from '@app/application/webhooks';
import { RecencyMap } from '@app/platform/caching/recency-map';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import type { WatchedTail } from '@app/platform/log-reader/shared-tail';
import { WebhookTimeline } from './webhook-timeline';

/** Whether a cached stream may be used unread: read in the tail's current opening, and no event of it handed on since. */
interface Freshness {
  readonly streamId: string;
  epoch: number;
  changed: boolean;
}

interface IndexEntry {
  state: WebhookIndexState;
  revision: number;
  coveredBefore: number;
  readonly freshness: Freshness;
}

/** Entities and webhooks kept in memory; the least recently used leave first. */
const CAPACITY = 20_000;

/**
 * Finds an entity's webhooks as they were at a log position, from the log alone: the entity's
 * index stream names them, each webhook stream gives its timeline. Both are cached and read on
 * from the revision folded; a read is needed only for an event beyond what the cache covers.
 * An event at position p arrives from the bus after it is in the log, so a read made then holds
 * every event before p, and the cache covers up to p from then on.
 *
 * With the process's shared tail of the log (`tail`: the worker that runs the log's readers), a
 * cached stream needs no read at all while the tail has handed on no event of it since the read,
 * up to the routed event: every event of an entity read the index and each webhook stream again,
 * eleven empty reads per payout (issue 28). The mark is cleared before a read, so a change that
 * arrives during it is not lost; a tail that opens again marks everything unknown.
 */
export class WebhookDirectory {
  private readonly indexes = new RecencyMap<IndexEntry>();
  private readonly timelines = new RecencyMap<{ timeline: WebhookTimeline; freshness: Freshness }>();
  /** The freshness of each cached stream, by stream id, for the tail's events to mark. */
  private readonly watched = new RecencyMap<Freshness>();
  private epoch = 0;

  constructor(
    private readonly store: EventStore,
    private readonly tail: WatchedTail | null = null,
  ) {
    tail?.watch({
      event: (event) => {
        const freshness = this.watched.peek(event.streamId);
        if (freshness) freshness.changed = true;
      },
      reopened: () => void (this.epoch += 1),
    });
  }

  async timelinesOf(entityId: string, position: number): Promise<WebhookTimeline[]> {
    const index = await this.index(entityId, position);
    return Promise.all(index.state.webhook_ids.map((id) => this.timeline(id, position)));
  }

  private async index(entityId: string, position: number): Promise<IndexEntry> {
    const entry = touch(this.indexes, entityId, () => ({
      state: webhookIndexDecider.initialState,
      revision: -1,
      coveredBefore: 0,
      freshness: unknown(webhookIndexStream(entityId)),
    }));
    if (this.covers(entry, entry.freshness, position)) return entry;
    this.watch(entry.freshness);
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
    const { timeline, freshness } = touch(this.timelines, webhookId, () => ({
      timeline: new WebhookTimeline(),
      freshness: unknown(webhookStream(webhookId)),
    }));
    if (this.covers(timeline, freshness, position)) return timeline;
    this.watch(freshness);
    timeline.extend(await this.store.readStream(freshness.streamId, { fromRevision: timeline.revision + 1 }));
    timeline.coveredBefore = Math.max(timeline.coveredBefore, position + 1);
    return timeline;
  }

  /** Covered by an earlier read, or unchanged since one as far as the tail has handed on (up to `position`). */
  private covers(cached: { coveredBefore: number }, freshness: Freshness, position: number): boolean {
    if (cached.coveredBefore > position) return true;
    const unchanged =
      this.tail !== null &&
      freshness.epoch === this.epoch &&
      !freshness.changed &&
      this.watched.peek(freshness.streamId) === freshness &&
      this.tail.watchedUpTo >= position;
    if (unchanged) cached.coveredBefore = position + 1;
    return unchanged;
  }

  /** Before a read, never after: an event of the stream the tail hands on from now on marks it changed. */
  private watch(freshness: Freshness): void {
    if (!this.tail) return;
    freshness.epoch = this.epoch;
    freshness.changed = false;
    // Evicted here, a stream is no longer marked, and `covers` no longer trusts it.
    this.watched.set(freshness.streamId, freshness);
    if (this.watched.size > 2 * CAPACITY) this.watched.delete(this.watched.oldest()!);
  }
}

const unknown = (streamId: string): Freshness => ({ streamId, epoch: -1, changed: true });

/** The cached value (made when missing), marked most recently used. */
function touch<V>(cache: RecencyMap<V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = make()));
  if (cache.size > CAPACITY) cache.delete(cache.oldest()!);
  return value;
}
