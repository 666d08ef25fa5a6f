import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { ResourceFolds } from './resource-folds';

/** A ledger whose state is the list of amounts folded, so a wrong prefix shows. */
const ledger = { evolve: (s: number[], e: RecordedEvent) => [...s, e.data.n as number], initialState: [] as number[] };

function storeOf(length: number) {
  const log = Array.from({ length }, (_, i) => ({ streamId: 'account-1', revision: i, data: { n: i } }) as unknown as RecordedEvent);
  const reads: number[] = [];
  let eventsRead = 0;
  const store = {
    readStream: async (_: string, o?: { fromRevision?: number }) => {
      reads.push(o?.fromRevision ?? 0);
      const events = log.slice(o?.fromRevision ?? 0);
      eventsRead += events.length;
      return events;
    },
  } as unknown as EventStore;
  return { store, reads, eventsRead: () => eventsRead };
}

const upTo = (revision: number) => Array.from({ length: revision + 1 }, (_, i) => i);

describe('ResourceFolds: the resource at an event, never folded from the start per event', () => {
  it('routes events of a stream in order reading each event about once (linear, not quadratic)', async () => {
    const { store, reads } = storeOf(200);
    const folds = new ResourceFolds(store);
    for (let revision = 0; revision < 200; revision++) expect(await folds.at('account-1', revision, ledger)).toEqual(upTo(revision));
    expect(reads).toEqual(upTo(199));
  });

  it('answers an older event (a redelivery) with the state at that event, and events a webhook skipped are folded on the way', async () => {
    const { store } = storeOf(50);
    const folds = new ResourceFolds(store);
    expect(await folds.at('account-1', 40, ledger)).toEqual(upTo(40));
    expect(await folds.at('account-1', 10, ledger)).toEqual(upTo(10));
    expect(await folds.at('account-1', 49, ledger)).toEqual(upTo(49));
  });

  it('keeps folds per stream and per evolve', async () => {
    const { store } = storeOf(5);
    const folds = new ResourceFolds(store);
    const count = { evolve: (s: number) => s + 1, initialState: 0 };
    expect(await folds.at('account-1', 4, ledger)).toEqual(upTo(4));
    expect(await folds.at('account-1', 4, count)).toBe(5);
    expect(await folds.at('account-2', 2, count)).toBe(3);
  });
});
