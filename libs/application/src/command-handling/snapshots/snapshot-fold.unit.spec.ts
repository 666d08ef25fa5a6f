import fc from 'fast-check';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { StreamFolds, withFolds } from '@app/platform/folds/stream-folds';
import type { SnapshotStore } from '@app/platform/snapshots/snapshot-store.port';
import { foldStream, rememberFold } from '../stream-cache';
import { snapshotDecider, snapshotKey } from './fold-snapshots';
import { MemorySnapshots } from '../../testing/memory-snapshots';

/** A process's folds: a cold cache, a snapshot every 7 events. */
const foldsOf = (snapshots: SnapshotStore) => new StreamFolds({ maxBytes: 16 << 20, snapshots, snapshotEvery: 7 });

/** A state shaped like the real ones: totals, a keyed map, an optional field and a deep linked list. */
type History = { readonly id: string; readonly value: number; readonly previous: History } | null;
interface State {
  readonly total: number;
  readonly holds: Readonly<Record<string, number>>;
  readonly note?: string;
  readonly history: History;
  readonly tags: readonly (string | null)[];
}
type Event =
  | { type: 'Add'; n: number }
  | { type: 'Hold'; id: string; n: number }
  | { type: 'Release'; id: string }
  | { type: 'Note'; note?: string; tag: string | null };

function evolve(state: State, event: RecordedEvent<Event>): State {
  const e = event.data;
  switch (e.type) {
    case 'Add':
      return { ...state, total: state.total + e.n, history: { id: event.id, value: e.n, previous: state.history } };
    case 'Hold':
      return { ...state, holds: { ...state.holds, [e.id]: e.n } };
    case 'Release': {
      const { [e.id]: _released, ...holds } = state.holds;
      return { ...state, holds };
    }
    case 'Note':
      return { ...state, note: e.note, tags: [...state.tags, e.tag] };
  }
}
const decider = { evolve, initialState: { total: 0, holds: {}, history: null, tags: [] } as State };
snapshotDecider(evolve, 'test-ledger:1');

const anEvent: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ type: fc.constant('Add' as const), n: fc.integer({ min: -1000, max: 1000 }) }),
  fc.record({ type: fc.constant('Hold' as const), id: fc.constantFrom('h1', 'h2', 'h3'), n: fc.nat(500) }),
  fc.record({ type: fc.constant('Release' as const), id: fc.constantFrom('h1', 'h2', 'h3', 'h4') }),
  fc.record({
    type: fc.constant('Note' as const),
    note: fc.option(fc.string(), { nil: undefined }),
    tag: fc.option(fc.string(), { nil: null }),
  }),
);

/** A process's view of one log: a fresh object has a cold fold cache, as after a restart. */
function processOf(log: RecordedEvent[], snapshots: SnapshotStore): EventStore {
  const store = {
    readStream: async (_: string, options?: { fromRevision?: number }) => log.slice(options?.fromRevision ?? 0),
  } as unknown as EventStore;
  return withFolds(store, foldsOf(snapshots));
}

const record = (data: Event, revision: number): RecordedEvent<Event> => ({
  id: `evt_${revision}`,
  streamId: 's',
  type: data.type,
  data,
  revision,
  position: revision + 1,
  metadata: {
    event_id: `evt_${revision}`,
    organization_id: 'org',
    correlation_id: 'c',
    causation_id: 'c',
    schema_version: 1,
    occurred_at: 0,
    mode: 'sandbox',
  },
});

describe('snapshots: a fold from a snapshot equals the full fold', () => {
  it('for random streams read by processes that start cold at random points', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anEvent, { maxLength: 120 }),
        fc.array(fc.nat(120), { maxLength: 6 }),
        async (events, restarts) => {
          const snapshots = new MemorySnapshots();
          const log: RecordedEvent[] = [];
          let store = processOf(log, snapshots);
          for (const [i, data] of events.entries()) {
            log.push(record(data, i) as RecordedEvent);
            if (restarts.includes(i)) store = processOf(log, snapshots);
            const folded = await foldStream(store, 's', decider);
            const full = log
              .slice(0, i + 1)
              .reduce((s, e) => evolve(s, e as RecordedEvent<Event>), decider.initialState);
            expect(folded.revision).toBe(i);
            expect(folded.state).toEqual(full);
            expect(folded.owner).toEqual(log[0].metadata);
          }
          // Snapshots were written every 7 events and a cold process folds from the latest one.
          const latest = snapshots.saved.get(`${snapshotKey(evolve)}/s`);
          if (events.length >= 7) expect(latest?.revision).toBe(Math.floor(events.length / 7) * 7 - 1);
          const cold = await foldStream(processOf(log, snapshots), 's', decider);
          expect(cold.state).toEqual(log.reduce((s, e) => evolve(s, e as RecordedEvent<Event>), decider.initialState));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an append snapshots the state it remembers; a cold fold then reads only the events after it', async () => {
    const snapshots = new MemorySnapshots();
    const log = Array.from({ length: 30 }, (_, i) => record({ type: 'Add', n: i }, i) as RecordedEvent);
    const warm = processOf(log, snapshots);
    rememberFold(
      warm,
      's',
      evolve,
      {
        state: log.reduce((s, e) => evolve(s, e as RecordedEvent<Event>), decider.initialState),
        revision: 29,
        owner: log[0].metadata,
      },
      -1,
    );
    const read: number[] = [];
    const cold = withFolds(
      {
        readStream: async (_: string, o?: { fromRevision?: number }) => (
          read.push(o?.fromRevision ?? 0),
          log.slice(o?.fromRevision ?? 0)
        ),
      } as unknown as EventStore,
      foldsOf(snapshots),
    );
    expect((await foldStream(cold, 's', decider)).state.total).toBe(435);
    expect(read).toEqual([30]);
  });

  it('an append snapshots only when it crossed a multiple since the fold it decided on, whatever the cache kept', () => {
    const snapshots = new MemorySnapshots();
    const log = Array.from({ length: 30 }, (_, i) => record({ type: 'Add', n: i }, i) as RecordedEvent);
    // A process whose cache holds nothing of the stream (evicted, as a large state is): 28 -> 29 crosses no multiple of 7.
    const evicted = processOf(log, snapshots);
    rememberFold(
      evicted,
      's',
      evolve,
      {
        state: log.reduce((s, e) => evolve(s, e as RecordedEvent<Event>), decider.initialState),
        revision: 29,
        owner: log[0].metadata,
      },
      28,
    );
    expect(snapshots.saved.size).toBe(0);
  });

  it('keys snapshots by decider version and evolve source, so another evolve never reads them', () => {
    const other = (s: State) => s;
    snapshotDecider(other, 'test-ledger:1');
    expect(snapshotKey(evolve)).toMatch(/^test-ledger:1:[0-9a-f]{12}$/);
    expect(snapshotKey(other)).not.toBe(snapshotKey(evolve));
    expect(snapshotKey(() => undefined)).toBeUndefined();
  });
});
