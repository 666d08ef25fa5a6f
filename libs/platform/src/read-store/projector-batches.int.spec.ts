import { anEvent, streamName } from '../event-store/event-store.contract';
import type { Projection } from './projection';
import { Projector } from './projector';
import { useEmbeddedStores } from '../testing/embedded-stores';

const notes: Projection = {
  name: 'notes',
  collection: 'notes',
  handles: ['Noted'],
  documentIds: (event) => [event.id],
  evolve: (_, event) => ({ id: event.id }),
};

describe('projector batch listeners', () => {
  const stores = useEmbeddedStores('batches');

  it('are told after each batch is stored (its documents readable), until they unsubscribe', async () => {
    const projector = new Projector(stores.store, stores.readStore, [notes]);
    const seen: number[] = [];
    const off = projector.onBatch(
      () => void stores.readStore.find('notes', { limit: 100 }).then((p) => seen.push(p.items.length)),
    );
    await projector.start();
    await stores.store.append(streamName(), [anEvent('Noted'), anEvent('Noted')], 'no_stream');
    await projector.waitFor();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([2]);

    off();
    await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
    await projector.waitFor();
    expect(seen).toEqual([2]);
    await projector.stop();
  });
});
