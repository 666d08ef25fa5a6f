import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventMetadata, EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { atPointInTime, upToPoint } from '@app/platform/event-store/point-in-time';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { StreamFolds, withFolds } from '@app/platform/folds/stream-folds';
import type { SnapshotStore } from '@app/platform/snapshots/snapshot-store.port';
import { snapshotDecider } from './snapshots/fold-snapshots';
import { foldStream, foldStreamAt } from './stream-cache';
import { MemorySnapshots } from '../testing/memory-snapshots';

/** A ledger whose state is the list of amounts folded, so a wrong prefix shows. */
const ledger = {
  evolve: (s: readonly number[], e: RecordedEvent) => [...s, e.data.n as number],
  initialState: [] as readonly number[],
};
snapshotDecider(ledger.evolve, 'test-ledger-at:1');
const fromScratch = (events: RecordedEvent[]) => events.reduce(ledger.evolve, ledger.initialState);

const STREAM = 'ledger-1';
const meta = (i: number): EventMetadata => ({
  event_id: `evt_${i}`,
  organization_id: 'org_a',
  correlation_id: 'c',
  causation_id: 'c',
  schema_version: 1,
  occurred_at: i,
  mode: 'sandbox',
});

describe('foldStreamAt: a stream as of a revision, through the one fold cache', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  let log: RecordedEvent[];
  const N = 30;

  /** A process's view of the store (a fresh object has a cold cache) that records where each read starts. */
  function processOf(snapshots?: SnapshotStore) {
    const reads: number[] = [];
    const store = {
      readStream: async (streamId: string, options?: { fromRevision?: number }) => {
        reads.push(options?.fromRevision ?? 0);
        // As the production store does: an `as_of` read ends at the point.
        return upToPoint(await sqlite.readStream(streamId, options));
      },
    } as unknown as EventStore;
    return { store: withFolds(store, new StreamFolds({ maxBytes: 16 << 20, snapshots, snapshotEvery: 20 })), reads };
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fold-at-'));
    sqlite = new SqliteEventStore(join(dir, 'events.db'));
    for (let i = 0; i < N; i++)
      await sqlite.append(
        STREAM,
        [{ type: 'Added', data: { n: i * 7 }, metadata: meta(i) }],
        i === 0 ? 'no_stream' : i - 1,
      );
    log = await sqlite.readStream(STREAM);
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('at every revision equals the fold of that prefix from scratch, in order or not, with the owner of the first event', async () => {
    const shuffled = [...Array(N).keys()].sort((a, b) => ((a * 17) % N) - ((b * 17) % N));
    for (const order of [[...Array(N).keys()], shuffled]) {
      const { store } = processOf();
      for (const k of order) {
        const folded = await foldStreamAt(store, STREAM, ledger, k);
        expect(folded).toEqual({ state: fromScratch(log.slice(0, k + 1)), revision: k, owner: log[0].metadata });
      }
    }
    const { store } = processOf();
    expect(await foldStreamAt(store, STREAM, ledger, -1)).toEqual({ state: [], revision: -1, owner: null });
    expect(await foldStreamAt(store, STREAM, ledger, N + 5)).toEqual({
      state: fromScratch(log),
      revision: N - 1,
      owner: log[0].metadata,
    });
    expect(await foldStreamAt(store, 'ledger-none', ledger, 3)).toEqual({ state: [], revision: -1, owner: null });
  });

  it('reads only the new events when moving forward, and foldStream completes the same cached fold', async () => {
    const { store, reads } = processOf();
    for (let k = 0; k < N; k++) await foldStreamAt(store, STREAM, ledger, k);
    expect(reads).toEqual([...Array(N).keys()]);
    // At the revision already folded: nothing is read.
    await foldStreamAt(store, STREAM, ledger, N - 1);
    expect(reads).toHaveLength(N);
    await sqlite.append(STREAM, [{ type: 'Added', data: { n: 1000 }, metadata: meta(N) }], N - 1);
    const head = await foldStream(store, STREAM, ledger);
    expect(reads.slice(N)).toEqual([N]); // the new event only
    expect(head).toEqual({ state: fromScratch(await sqlite.readStream(STREAM)), revision: N, owner: log[0].metadata });
  });

  it('goes back to an older revision without losing the newer cached fold', async () => {
    const { store, reads } = processOf();
    expect((await foldStream(store, STREAM, ledger)).revision).toBe(N - 1);
    expect(await foldStreamAt(store, STREAM, ledger, 5)).toEqual({
      state: fromScratch(log.slice(0, 6)),
      revision: 5,
      owner: log[0].metadata,
    });
    expect(reads).toEqual([0, 0]); // no snapshot here: the older state is folded from the start
    // The head fold is still the cached one: foldStream reads only past it.
    expect(await foldStream(store, STREAM, ledger)).toEqual({
      state: fromScratch(log),
      revision: N - 1,
      owner: log[0].metadata,
    });
    expect(reads).toEqual([0, 0, N]);
    // And a newer revision than the older fold but behind the head is right too.
    expect((await foldStreamAt(store, STREAM, ledger, 20)).state).toEqual(fromScratch(log.slice(0, 21)));
    expect((await foldStream(store, STREAM, ledger)).revision).toBe(N - 1);
  });

  it('a reader behind the cached head (the router catching up beside the process managers) reads each event once', async () => {
    const { store, reads } = processOf();
    await foldStream(store, STREAM, ledger);
    for (let k = 0; k < N - 1; k++)
      expect((await foldStreamAt(store, STREAM, ledger, k)).state).toEqual(fromScratch(log.slice(0, k + 1)));
    // The head's read, then one read per event from the reader's own place.
    expect(reads).toEqual([0, ...Array(N - 1).keys()]);
    expect(await foldStream(store, STREAM, ledger)).toEqual({
      state: fromScratch(log),
      revision: N - 1,
      owner: log[0].metadata,
    });
    expect(reads).toHaveLength(N + 1);
  });

  it('goes back from the snapshot when it is not past the revision, else from the start', async () => {
    const snapshots = new MemorySnapshots();
    // One process folds to 24: that crosses SNAPSHOT_EVERY (20) and saves a snapshot at 24.
    await foldStreamAt(processOf(snapshots).store, STREAM, ledger, 24);
    expect([...snapshots.saved.values()].map((s) => s.revision)).toEqual([24]);
    // Another starts cold from it (reads from 25) to the head, then is asked for older revisions.
    const { store, reads } = processOf(snapshots);
    expect((await foldStream(store, STREAM, ledger)).state).toEqual(fromScratch(log));
    expect((await foldStreamAt(store, STREAM, ledger, 26)).state).toEqual(fromScratch(log.slice(0, 27)));
    expect((await foldStreamAt(store, STREAM, ledger, 24)).state).toEqual(fromScratch(log.slice(0, 25)));
    expect((await foldStreamAt(store, STREAM, ledger, 10)).state).toEqual(fromScratch(log.slice(0, 11)));
    expect(reads).toEqual([25, 25, 0]);
    expect((await foldStream(store, STREAM, ledger)).revision).toBe(N - 1);
    expect(reads).toEqual([25, 25, 0, N]);
  });

  it('a cached fold far behind the stream goes on from its latest snapshot, never through the whole gap', async () => {
    const append = async (count: number) => {
      const end = (await sqlite.readStream(STREAM)).length;
      for (let i = end; i < end + count; i++)
        await sqlite.append(STREAM, [{ type: 'Added', data: { n: i * 7 }, metadata: meta(i) }], i - 1);
      return sqlite.readStream(STREAM);
    };
    const snapshots = new MemorySnapshots();
    const { store, reads } = processOf(snapshots);
    await foldStream(store, STREAM, ledger);
    // Other processes append 60 events, one of them folds them: the latest snapshot is at 89.
    let all = await append(60);
    await foldStream(processOf(snapshots).store, STREAM, ledger);
    expect(Math.max(...[...snapshots.saved.values()].map((s) => s.revision))).toBe(89);
    // This process's fold at 29: one page (20 events) shows it far behind, then on from the snapshot.
    expect(await foldStream(store, STREAM, ledger)).toEqual({
      state: fromScratch(all),
      revision: 89,
      owner: log[0].metadata,
    });
    expect(reads).toEqual([0, 30, 90]);
    // 25 more and no newer snapshot: the page, then the rest.
    all = await append(25);
    expect((await foldStream(store, STREAM, ledger)).state).toEqual(fromScratch(all));
    expect(reads.slice(3)).toEqual([90, 110]);
    // Asked for a revision before the latest snapshot, the fold goes on from its own place.
    const other = processOf(snapshots);
    await foldStreamAt(other.store, STREAM, ledger, 29);
    expect((await foldStreamAt(other.store, STREAM, ledger, 60)).state).toEqual(fromScratch(all.slice(0, 61)));
    expect(other.reads).toEqual([0, 30, 50]);
  });

  it('as of a point in time, neither completes from nor stores into the cache', async () => {
    const { store, reads } = processOf();
    await foldStream(store, STREAM, ledger);
    const asOf = await atPointInTime({ position: log[9].position }, () => foldStreamAt(store, STREAM, ledger, 20));
    expect(asOf).toEqual({ state: fromScratch(log.slice(0, 10)), revision: 9, owner: log[0].metadata });
    expect(await foldStreamAt(store, STREAM, ledger, N - 1)).toEqual({
      state: fromScratch(log),
      revision: N - 1,
      owner: log[0].metadata,
    });
    expect(reads).toEqual([0, 0]);
  });
});
