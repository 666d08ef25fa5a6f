import { anEvent, streamName } from '../event-store/event-store.contract';
import type { Projection } from './projection';
import { Projector } from './projector';
import { useEmbeddedStores } from '../testing/embedded-stores';

/** One document per event; `version` decides whether it records a field older documents lack. */
const notes = (version?: number): Projection => ({
  name: 'notes',
  collection: 'notes',
  version,
  handles: ['Noted'],
  documentIds: (event) => [event.id],
  evolve: (_, event) => ({ id: event.id, ...(version ? { tagged: version } : {}) }),
});

describe('projection versions', () => {
  const stores = useEmbeddedStores('versions');

  const project = async (projection: Projection) => {
    const projector = new Projector(stores.store, stores.readStore, [projection]);
    await projector.start();
    await projector.waitFor();
    await projector.stop();
    return (await stores.readStore.find('notes', { limit: 100 })).items;
  };

  it('rebuilds a collection once when its projection version rises, so older documents gain the new field', async () => {
    await stores.store.append(streamName(), [anEvent('Noted'), anEvent('Noted')], 'no_stream');
    expect(await project(notes())).toEqual([
      expect.not.objectContaining({ tagged: 1 }),
      expect.not.objectContaining({ tagged: 1 }),
    ]);
    expect(await project(notes(1))).toEqual([
      expect.objectContaining({ tagged: 1 }),
      expect.objectContaining({ tagged: 1 }),
    ]);

    // Same version again: nothing is reset, the checkpoint holds, new events are projected on.
    await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
    expect(await project(notes(1))).toHaveLength(3);
    expect(await stores.readStore.getCheckpoint('notes')).toBe(await stores.store.headPosition());
  });
});
