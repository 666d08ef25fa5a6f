import { modeOf } from '@app/platform/event-store/event-mode';
import { pointInTime } from '@app/platform/event-store/point-in-time';
import type { EventMetadata, EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { StreamFolds } from '@app/platform/folds/stream-folds';
import { foldAsOf } from './fold-as-of';
import { loadSnapshot, snapshotIfDue, snapshotKey } from './snapshots/fold-snapshots';

export interface FoldedStream<S> {
  readonly state: S;
  /** Revision of the last event folded, -1 for a stream that does not exist. */
  readonly revision: number;
  /** Metadata of the stream's first event: who owns it (tenancy). */
  readonly owner: EventMetadata | null;
}

type Evolve<S> = (state: S, event: never) => S;

/*
 * Folded states of recently used streams are kept in the store's `folds` (the process's
 * StreamFolds, made with the store by the composition root), keyed by evolve function and stream.
 * Correct without invalidation because streams only grow: a cached fold at revision n is completed
 * by reading from n + 1, and an append still carries its expected revision, so another process's
 * write is caught as a conflict. States are immutable values, so sharing one between readers is
 * safe. One budget in bytes across deciders (fold-cache.ts), least recently used out first.
 */

type Foldable<S> = { readonly evolve: Evolve<S>; readonly initialState: S };

/** The stream folded up to its current end, reading only what the cache has not seen. */
export function foldStream<S>(store: EventStore, streamId: string, decider: Foldable<S>): Promise<FoldedStream<S>> {
  return foldStreamAt(store, streamId, decider, Infinity);
}

/**
 * The stream folded up to `revision` (the resource as it was at that event), through the same
 * cache as `foldStream`: a cached fold at or before `revision` is completed with the events after
 * it, so a reader that follows a stream in order reads each event about once. A cached fold past
 * `revision` (a redelivery) is kept: the answer is folded from the stream's snapshot when that is
 * not past `revision`, else from the start, and is remembered only when the cache holds nothing
 * further ahead (streams only grow, so a fold at revision n stays valid to complete later).
 */
export async function foldStreamAt<S>(
  store: EventStore,
  streamId: string,
  decider: Foldable<S>,
  revision: number,
): Promise<FoldedStream<S>> {
  // An `as_of` read by id: from a snapshot at or before the point (fold-as-of.ts).
  if (revision === Infinity && pointInTime()) return foldAsOf(store, streamId, decider);
  // An `as_of` read folds a prefix of the stream: neither completed from nor stored in the cache.
  const folds = pointInTime() ? undefined : store.folds;
  const key = folds && folds.prefixOf(decider.evolve) + streamId;
  const cached = key ? (folds.cache.get(key) as FoldedStream<S> | undefined) : undefined;
  // A reader behind the head (the webhook router catching up in a worker whose process managers
  // keep the head cached) keeps its own place beside it, so it too reads each event about once.
  const behindKey = `${key}\u0000behind`;
  const behind =
    cached && cached.revision > revision ? (folds!.cache.get(behindKey) as FoldedStream<S> | undefined) : undefined;
  const kept =
    cached && cached.revision <= revision ? cached : behind && behind.revision <= revision ? behind : undefined;
  let known = kept;
  // On a miss, a long stream starts from its latest snapshot instead of its first event.
  if (!known && folds) {
    const snapshot = (await loadSnapshot(folds, streamId, decider.evolve)) as FoldedStream<S> | undefined;
    if (snapshot && snapshot.revision <= revision) known = snapshot;
  }
  let folded = known;
  if ((known?.revision ?? -1) < revision) {
    const read = await readAfter(store, kept ? folds : undefined, streamId, decider.evolve, known, revision);
    known = folded = read.from;
    const fresh = upTo(read.events, revision);
    if (fresh.length)
      folded = {
        state: fresh.reduce((s, e) => decider.evolve(s, e as never), known ? known.state : decider.initialState),
        revision: fresh[fresh.length - 1].revision,
        owner: known?.owner ?? ownerOf(fresh[0]),
      };
  }
  if (!folded) return { state: decider.initialState, revision: -1, owner: null };
  // Never a step back for the head: a fold behind it goes to the reader's own place.
  if (!key) return folded;
  if (cached && cached.revision > folded.revision) folds.cache.remember(behindKey, folded);
  else if (folded !== cached) {
    folds.cache.remember(key, folded);
    snapshotIfDue(folds, streamId, decider.evolve, known?.revision ?? -1, folded);
  }
  return folded;
}

/**
 * The events after `known`, and the fold they complete. A fold kept in the cache may be far behind
 * the stream (other processes appended more than SNAPSHOT_EVERY events since this one last folded
 * it): then it goes on from the stream's latest snapshot when that is further ahead, so catching up
 * reads about SNAPSHOT_EVERY events more than needed, never the whole gap, however long it grew.
 */
async function readAfter<S>(
  store: EventStore,
  keptIn: StreamFolds | undefined,
  streamId: string,
  evolve: object,
  known: FoldedStream<S> | undefined,
  revision: number,
): Promise<{ from: FoldedStream<S> | undefined; events: RecordedEvent[] }> {
  const fromRevision = known ? known.revision + 1 : 0;
  const every = keptIn?.snapshots && snapshotKey(evolve) ? keptIn.snapshotEvery : 0;
  if (!known || !every) return { from: known, events: await store.readStream(streamId, { fromRevision }) };
  const page = await store.readStream(streamId, { fromRevision, maxCount: every });
  const last = page.length ? page[page.length - 1].revision : -1;
  if (page.length < every || last >= revision) return { from: known, events: page };
  const snapshot = (await loadSnapshot(keptIn!, streamId, evolve)) as FoldedStream<S> | undefined;
  if (snapshot && snapshot.revision > last && snapshot.revision <= revision)
    return { from: snapshot, events: await store.readStream(streamId, { fromRevision: snapshot.revision + 1 }) };
  return { from: known, events: page.concat(await store.readStream(streamId, { fromRevision: last + 1 })) };
}

/** Events of a stream (in revision order) up to `revision`. */
function upTo(events: RecordedEvent[], revision: number): RecordedEvent[] {
  if (revision === Infinity || !events.length || events[events.length - 1].revision <= revision) return events;
  const end = events.findIndex((e) => e.revision > revision);
  return events.slice(0, end);
}

/** Who owns a stream: its first event's metadata, with the mode upcast for streams older than modes. */
function ownerOf(first: RecordedEvent): EventMetadata {
  return first.metadata.mode ? first.metadata : { ...first.metadata, mode: modeOf(first.metadata, first.data) };
}

/**
 * Records the state a successful append produced, so the next command on the stream reads nothing;
 * snapshots it when the append crossed a multiple of SNAPSHOT_EVERY since `decidedAt`, the revision
 * the command decided on. Not since the cache's entry: a state evicted meanwhile (a large one, LRU)
 * counted from -1 and saved a snapshot on every append (issue 26: 6.5 GB of account snapshots, 2 MB
 * each, in a 50,000-payout history).
 */
export function rememberFold<S>(
  store: EventStore,
  streamId: string,
  evolve: Evolve<S>,
  folded: FoldedStream<S>,
  decidedAt: number,
): void {
  const folds = store.folds;
  if (!folds) return;
  folds.cache.remember(folds.prefixOf(evolve) + streamId, folded);
  snapshotIfDue(folds, streamId, evolve, decidedAt, folded);
}

/** Commands on one stream, one after another within this process (StreamFolds.serialize); a bare store runs them as they come. */
export function serializePerStream<T>(store: EventStore, streamId: string, work: () => Promise<T>): Promise<T> {
  return store.folds ? store.folds.serialize(streamId, work) : work();
}
