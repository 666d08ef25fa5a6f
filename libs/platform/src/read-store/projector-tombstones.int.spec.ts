import { join } from 'node:path';
import Database from 'better-sqlite3';
import { anEvent, streamName } from '../event-store/event-store.contract';
import type { Projection } from './projection';
import { Projector } from './projector';
import { useEmbeddedStores } from '../testing/embedded-stores';

/** `Opened` creates a document per stream, `Closed` deletes it (leaving a tombstone). */
const doors: Projection = {
  name: 'doors',
  collection: 'doors',
  handles: ['Opened', 'Closed'],
  documentIds: (event) => [event.streamId],
  evolve: (_, event) => (event.type === 'Opened' ? { id: event.streamId } : null),
};

describe('projector: tombstone purge', () => {
  const stores = useEmbeddedStores('tombstones');

  const tombstones = () => {
    const db = new Database(join(stores.dir, 'read-models.db'), { readonly: true });
    try {
      return (
        db.prepare("SELECT count(*) AS n FROM documents WHERE collection = 'doors' AND deleted = 1").get() as {
          n: number;
        }
      ).n;
    } finally {
      db.close();
    }
  };

  it('purges tombstones once the projection is past them; a restart replays nothing back to life', async () => {
    const [a, b] = [streamName(), streamName()];
    await stores.store.append(a, [anEvent('Opened'), anEvent('Closed')], 'no_stream');
    await stores.store.append(b, [anEvent('Opened')], 'no_stream');
    const projector = new Projector(stores.store, stores.readStore, [doors], { purgeEveryMs: 0 });
    await projector.start();
    await projector.waitFor();
    expect(tombstones()).toBe(0);
    await stores.store.append(b, [anEvent('Closed')], 0);
    await projector.waitFor();
    await projector.stop();
    expect(tombstones()).toBe(0);

    const again = new Projector(stores.store, stores.readStore, [doors], { purgeEveryMs: 0 });
    await again.start();
    await again.waitFor();
    await again.stop();
    expect((await stores.readStore.find('doors', { limit: 10 })).items).toEqual([]);
  });

  it('keeps tombstones between purges (the interval)', async () => {
    await stores.store.append(streamName(), [anEvent('Opened'), anEvent('Closed')], 'no_stream');
    const projector = new Projector(stores.store, stores.readStore, [doors], { purgeEveryMs: 60_000 });
    await projector.start();
    await projector.waitFor();
    const stream = streamName();
    await stores.store.append(stream, [anEvent('Opened'), anEvent('Closed')], 'no_stream');
    await projector.waitFor();
    await projector.stop();
    expect(tombstones()).toBeGreaterThan(0);
  });
});
