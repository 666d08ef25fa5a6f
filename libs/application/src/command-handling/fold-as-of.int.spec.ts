import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventMetadata, EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { atPointInTime } from '@app/platform/event-store/point-in-time';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { StreamFolds, withFolds } from '@app/platform/folds/stream-folds';
import type { SnapshotStore } from '@app/platform/snapshots/snapshot-store.port';
import { snapshotDecider, snapshotKey } from './snapshots/fold-snapshots';
import { encodeState } from './snapshots/state-codec';
import { foldStream } from './stream-cache';
import { MemorySnapshots } from '../testing/memory-snapshots';

/** A ledger whose state is the list of amounts folded, so a wrong prefix shows. */
const ledger = {
  evolve: (s: readonly number[], e: RecordedEvent) => [...s, e.data.n as number],
  initialState: [] as readonly number[],
};
snapshotDecider(ledger.evolve, 'test-ledger-as-of:1');
const fromScratch = (events: RecordedEvent[]) => events.reduce(ledger.evolve, ledger.initialState);

const STREAM = 'ledger-as-of';
const N = 40;
const SNAPSHOTS = [9, 19, 29];
const meta = (i: number): EventMetadata => ({
  event_id: `evt_${i}`,
  organization_id: 'org_a',
  correlation_id: 'c',
  causation_id: 'c',
  schema_version: 1,
  occurred_at: 1_000 + i,
  mode: 'sandbox',
});

/** `as_of` reads by id (decisions §10) fold from the nearest snapshot at or before the point, reading nothing past it: never the whole stream. */
describe('an as_of fold', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  let log: RecordedEvent[];

  /** A process's view of the store (cold cache) that records each read: where it started, its limit, and how many events it returned. */
  function processOf(withSnapshots: boolean, kept?: SnapshotStore) {
    const reads: { from: number; max?: number; events: number }[] = [];
    const store = {
      readStream: async (streamId: string, options?: { fromRevision?: number; maxCount?: number }) => {
        const events = await sqlite.readStream(streamId, options);
        reads.push({
          from: options?.fromRevision ?? 0,
          ...(options?.maxCount ? { max: options.maxCount } : {}),
          events: events.length,
        });
        return events;
      },
    } as unknown as EventStore;
    const snapshots = new MemorySnapshots();
    const key = snapshotKey(ledger.evolve)!;
    for (const revision of withSnapshots ? SNAPSHOTS : []) {
      void snapshots.save({
        streamId: STREAM,
        key,
        revision,
        state: encodeState({ state: fromScratch(log.slice(0, revision + 1)), owner: log[0].metadata }),
      });
    }
    return {
      store: withFolds(
        store,
        new StreamFolds({ maxBytes: 16 << 20, snapshots: kept ?? snapshots, snapshotEvery: 500 }),
      ),
      reads,
    };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fold-as-of-'));
    sqlite = new SqliteEventStore(join(dir, 'events.db'));
    for (let i = 0; i < N; i++)
      await sqlite.append(
        STREAM,
        [{ type: 'Added', data: { n: i * 7 }, metadata: meta(i) }],
        i === 0 ? 'no_stream' : i - 1,
      );
    log = await sqlite.readStream(STREAM);
  });
  afterAll(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('equals the fold of the prefix from scratch at every point, by position and by time, with snapshots or without', async () => {
    for (const withSnapshots of [false, true]) {
      for (let k = 0; k < N; k++) {
        for (const point of [{ position: log[k].position }, { time: log[k].metadata.occurred_at }]) {
          const { store } = processOf(withSnapshots);
          expect(await atPointInTime(point, () => foldStream(store, STREAM, ledger))).toEqual({
            state: fromScratch(log.slice(0, k + 1)),
            revision: k,
            owner: log[0].metadata,
          });
        }
      }
    }
    const { store } = processOf(true);
    expect(await atPointInTime({ position: log[0].position - 1 }, () => foldStream(store, STREAM, ledger))).toEqual({
      state: [],
      revision: -1,
      owner: null,
    });
  });

  it('folds from the nearest snapshot at or before the point, wherever it is: one-event probes, then the events since that snapshot', async () => {
    for (const [k, nearest] of [
      [13, 9],
      [23, 19],
      [35, 29],
    ]) {
      const { store, reads } = processOf(true);
      await atPointInTime({ position: log[k].position }, () => foldStream(store, STREAM, ledger));
      expect(reads.filter((r) => r.max !== 1)).toEqual([{ from: nearest + 1, events: k - nearest }]);
      expect(reads.filter((r) => r.max === 1).length).toBeLessThanOrEqual(Math.ceil(Math.log2(SNAPSHOTS.length + 1)));
    }
  });

  it('with a store older than kept snapshots, folds from its latest one when at or before the point', async () => {
    const snapshots = new MemorySnapshots();
    snapshots.revisions = async () => [];
    await snapshots.save({
      streamId: STREAM,
      key: snapshotKey(ledger.evolve)!,
      revision: 19,
      state: encodeState({ state: fromScratch(log.slice(0, 20)), owner: log[0].metadata }),
    });
    const { store, reads } = processOf(true, snapshots);
    expect(await atPointInTime({ position: log[23].position }, () => foldStream(store, STREAM, ledger))).toMatchObject({
      state: fromScratch(log.slice(0, 24)),
      revision: 23,
    });
    expect(reads.filter((r) => r.max !== 1)).toEqual([{ from: 20, events: 4 }]);
  });

  it('before the first snapshot, reads from the start up to the point only, never the rest of the stream', async () => {
    const { store, reads } = processOf(true);
    await atPointInTime({ position: log[5].position }, () => foldStream(store, STREAM, ledger));
    expect(reads.filter((r) => r.max !== 1)).toEqual([{ from: 0, events: 6 }]);
  });
});
