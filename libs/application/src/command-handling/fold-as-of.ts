import type { EventMetadata, EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';
import { logger } from '@app/platform/logging/logger';
import { snapshotKey } from './snapshots/fold-snapshots';
import { decodeState } from './snapshots/state-codec';

interface Folded<S> {
  readonly state: S;
  readonly revision: number;
  readonly owner: EventMetadata | null;
}

type Foldable<S> = { readonly evolve: (state: S, event: never) => S; readonly initialState: S };

/**
 * A stream folded as of the point of an `as_of` read (atPointInTime), where every stream read
 * ends at the point (the adapters stop reading there): from the nearest snapshot whose event is at
 * or before the point, else from the start. The snapshot store keeps every snapshot, so the fold
 * reads at most `SNAPSHOT_EVERY` events whatever the history and wherever the point.
 * Nothing is cached or snapshotted: the fold of a prefix is not the stream's.
 */
export async function foldAsOf<S>(store: EventStore, streamId: string, decider: Foldable<S>): Promise<Folded<S>> {
  const nearest = await nearestSnapshot<S>(store, streamId, decider.evolve);
  if (nearest) return fold(decider, await store.readStream(streamId, { fromRevision: nearest.revision + 1 }), nearest);
  return fold(decider, await store.readStream(streamId), undefined);
}

/**
 * The kept snapshot with the latest revision whose event is at or before the point: a binary
 * search over the revisions kept, each probe a one-event read (empty when past the point).
 */
async function nearestSnapshot<S>(store: EventStore, streamId: string, evolve: object): Promise<Folded<S> | undefined> {
  const key = snapshotKey(evolve);
  const snapshots = store.folds?.snapshots;
  if (!key || !snapshots) return undefined;
  try {
    // The latest too: a store older than kept snapshots has only that one.
    const latest = await snapshots.load(streamId, key);
    const revisions = [
      ...new Set([...(await snapshots.revisions(streamId, key)), ...(latest ? [latest.revision] : [])]),
    ].sort((a, b) => a - b);
    let [low, high, found] = [0, revisions.length - 1, -1];
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [at] = await store.readStream(streamId, { fromRevision: revisions[middle], maxCount: 1 });
      if (at?.revision === revisions[middle]) [found, low] = [middle, middle + 1];
      else high = middle - 1;
    }
    const stored =
      found < 0
        ? null
        : revisions[found] === latest?.revision
          ? latest
          : await snapshots.loadAt(streamId, key, revisions[found]);
    if (!stored) return undefined;
    const { state, owner } = decodeState(stored.state) as { state: S; owner: EventMetadata | null };
    return { state, owner, revision: stored.revision };
  } catch (err) {
    // A snapshot is a cache: one that cannot be read costs a longer fold, never a failed read.
    logger.warn({ err, streamId }, 'snapshot: could not load for as_of, folding from the start');
    return undefined;
  }
}

function fold<S>(decider: Foldable<S>, events: readonly RecordedEvent[], from: Folded<S> | undefined): Folded<S> {
  if (!events.length) return from ?? { state: decider.initialState, revision: -1, owner: null };
  const first = events[0].metadata;
  return {
    state: events.reduce((s, e) => decider.evolve(s, e as never), from ? from.state : decider.initialState),
    revision: events[events.length - 1].revision,
    // The owner is the first event's metadata, with the mode upcast for streams older than modes (as stream-cache.ts).
    owner: from?.owner ?? (first.mode ? first : { ...first, mode: modeOf(first, events[0].data) }),
  };
}
