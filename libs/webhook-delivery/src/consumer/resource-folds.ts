import { FoldCache, foldCacheMaxBytes } from '@app/application/command-handling/fold-cache';
import { loadSnapshot } from '@app/application/command-handling/snapshots/fold-snapshots';
import type { EventStore } from '@app/platform/event-store/event-store.port';

export interface Foldable<S> {
  readonly evolve: (state: S, event: never) => S;
  readonly initialState: S;
}

interface Fold {
  readonly state: unknown;
  readonly revision: number;
}

const evolveIds = new WeakMap<object, number>();
let nextId = 0;

/**
 * A resource as it was at one of its events, for the public event that event fires. Events of a
 * stream reach the router in order, so the fold of the previous event is kept (per stream and
 * evolve, bounded by bytes: a quarter of FOLD_CACHE_MAX_BYTES) and completed with the events after
 * it; an account's thousandth balance change reads one event, not a thousand. Cold, or for an
 * event older than the kept fold (a redelivery), the fold starts from the stream's snapshot when
 * that is not past the event, else from the start.
 */
export class ResourceFolds {
  private readonly cache = new FoldCache<Fold>(Math.floor(foldCacheMaxBytes() / 4));

  constructor(private readonly store: EventStore) {}

  async at<S>(streamId: string, revision: number, decider: Foldable<S>): Promise<S> {
    let id = evolveIds.get(decider.evolve);
    if (id === undefined) evolveIds.set(decider.evolve, (id = nextId++));
    const key = `${id}:${streamId}`;
    let fold = this.cache.get(key);
    if (!fold || fold.revision > revision) fold = await this.start(streamId, revision, decider);
    if (fold.revision < revision) {
      const events = (await this.store.readStream(streamId, { fromRevision: fold.revision + 1 })).filter((e) => e.revision <= revision);
      const state = events.reduce((s, e) => decider.evolve(s as S, e as never), fold.state);
      fold = { state, revision: events.length ? events[events.length - 1].revision : fold.revision };
    }
    this.cache.remember(key, fold);
    return fold.state as S;
  }

  private async start<S>(streamId: string, revision: number, decider: Foldable<S>): Promise<Fold> {
    const snapshot = await loadSnapshot(this.store, streamId, decider.evolve);
    return snapshot && snapshot.revision <= revision ? snapshot : { state: decider.initialState, revision: -1 };
  }
}
