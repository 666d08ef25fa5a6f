import type { EventMetadata, EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';
import { loadSnapshot } from './snapshots/fold-snapshots';

interface Folded<S> {
  readonly state: S;
  readonly revision: number;
  readonly owner: EventMetadata | null;
}

type Foldable<S> = { readonly evolve: (state: S, event: never) => S; readonly initialState: S };

/**
 * A stream folded as of the point of an `as_of` read (atPointInTime), where every stream read
 * ends at the point (the adapters stop reading there). From the stream's snapshot when its event
 * is at or before the point: the read from the snapshot's revision then starts with that event.
 * Otherwise (no snapshot, or one past the point) from the start up to the point: an early point
 * costs its prefix, a recent one the events since the snapshot, never the whole history.
 * Nothing is cached or snapshotted: the fold of a prefix is not the stream's.
 */
export async function foldAsOf<S>(store: EventStore, streamId: string, decider: Foldable<S>): Promise<Folded<S>> {
  const snapshot = (await loadSnapshot(store, streamId, decider.evolve)) as Folded<S> | undefined;
  if (snapshot) {
    const [at, ...after] = await store.readStream(streamId, { fromRevision: snapshot.revision });
    if (at?.revision === snapshot.revision) return fold(decider, after, snapshot);
  }
  return fold(decider, await store.readStream(streamId), undefined);
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
