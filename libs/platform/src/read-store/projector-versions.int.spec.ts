import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEvent, streamName } from '../event-store/event-store.contract';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { Projection } from './projection';
import { Projector } from './projector';
import { SqliteReadStore } from './sqlite-read-store';

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
  let dir: string;
  let store: SqliteEventStore;
  let readStore: SqliteReadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'versions-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    readStore = new SqliteReadStore(join(dir, 'read-models.db'));
  });
  afterEach(async () => {
    await store.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = async (projection: Projection) => {
    const projector = new Projector(store, readStore, [projection]);
    await projector.start();
    await projector.waitFor();
    await projector.stop();
    return (await readStore.find('notes', { limit: 100 })).items;
  };

  it('rebuilds a collection once when its projection version rises, so older documents gain the new field', async () => {
    await store.append(streamName(), [anEvent('Noted'), anEvent('Noted')], 'no_stream');
    expect(await project(notes())).toEqual([expect.not.objectContaining({ tagged: 1 }), expect.not.objectContaining({ tagged: 1 })]);
    expect(await project(notes(1))).toEqual([expect.objectContaining({ tagged: 1 }), expect.objectContaining({ tagged: 1 })]);

    // Same version again: nothing is reset, the checkpoint holds, new events are projected on.
    await store.append(streamName(), [anEvent('Noted')], 'no_stream');
    expect(await project(notes(1))).toHaveLength(3);
    expect(await readStore.getCheckpoint('notes')).toBe(await store.headPosition());
  });
});
