import { anEvent, streamName } from '../event-store/event-store.contract';
import type { Projection } from './projection';
import { Projector } from './projector';
import { useEmbeddedStores } from '../testing/embedded-stores';

/**
 * A planned projection: `Moved` moves a count from the document its `from` names (read, not named
 * by the event's id) to `to`. Each plan must see what the batch planned before it, even before
 * the store does (the batch is one commit).
 */
const moves: Projection = {
  name: 'moves',
  collection: 'moves',
  handles: ['Moved'],
  documentIds: () => [],
  evolve: (current) => current,
  async plan(event, read) {
    const { from, to } = event.data as { from: string; to: string };
    const source = await read(from);
    const target = await read(to);
    const n = Number(source?.n ?? 0);
    return [
      { id: from, doc: { id: from, n: 0 } },
      { id: to, doc: { id: to, n: Number(target?.n ?? 0) + n + 1 } },
    ];
  },
};

describe('projector: planned projections', () => {
  const stores = useEmbeddedStores('planned');
  const moved = (from: string, to: string) => anEvent('Moved', { from, to });

  it('plan on what the batch planned before, in one batch and across batches, and apply each event once', async () => {
    const projector = new Projector(stores.store, stores.readStore, [moves]);
    await projector.start();
    await stores.store.append(streamName(), [moved('a', 'b'), moved('b', 'c'), moved('c', 'a')], 'no_stream');
    await projector.waitFor();
    // a→b: b=1; b→c: c=2, b=0; c→a: a=3, c=0.
    expect((await stores.readStore.find('moves', { limit: 10 })).items).toEqual([
      { id: 'c', n: 0 },
      { id: 'b', n: 0 },
      { id: 'a', n: 3 },
    ]);
    await stores.store.append(streamName(), [moved('a', 'b')], 'no_stream');
    await projector.waitFor();
    await projector.stop();
    expect(await stores.readStore.get('moves', 'b')).toEqual({ id: 'b', n: 4 });

    // A restart from the stored checkpoint replays nothing.
    const again = new Projector(stores.store, stores.readStore, [moves]);
    await again.start();
    await again.waitFor();
    await again.stop();
    expect(await stores.readStore.get('moves', 'b')).toEqual({ id: 'b', n: 4 });
  });
});
