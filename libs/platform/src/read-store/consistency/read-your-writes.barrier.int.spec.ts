import { anEvent, streamName } from '../../event-store/event-store.contract';
import type { Projection } from '../projection';
import { Projector } from '../projector';
import { consistentReadStore } from './consistent-read-store';
import { StoredCheckpointProgress } from './projection-progress';
import { ReadModelLaggingError } from './read-model-lagging.error';
import { ReadYourWritesBarrier } from './read-your-writes.barrier';
import { useEmbeddedStores } from '../../testing/embedded-stores';

/** Counts `Noted` events into one document of `notes`. */
const notes: Projection = {
  name: 'notes',
  collection: 'notes',
  handles: ['Noted'],
  documentIds: () => ['tally'],
  evolve: (current) => ({ id: 'tally', n: Number(current?.n ?? 0) + 1 }),
};

describe('read-your-writes barrier', () => {
  const stores = useEmbeddedStores('barrier');

  const polling = (timeoutMs: number) =>
    new ReadYourWritesBarrier(stores.store, new StoredCheckpointProgress(stores.readStore), [notes], timeoutMs);
  /**
   * Whether `promise` has settled once `looked` (the checkpoint reads) has been called `rounds`
   * more times, or, without `looked`, after a few turns of the event loop: what it does before
   * anything changes, asked without a timer (issue 32: a test never races one).
   */
  const settledYet = async (promise: Promise<unknown>, looked?: jest.SpyInstance, rounds = 2) => {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    if (looked)
      for (const from = looked.mock.calls.length; looked.mock.calls.length < from + rounds && !settled;)
        await new Promise((r) => setTimeout(r, 1));
    for (let turn = 0; turn < 10; turn++) await new Promise((r) => setImmediate(r));
    return settled;
  };

  describe('polling stored checkpoints (an API process without the projector)', () => {
    it('returns at once when the checkpoint has reached the head', async () => {
      const { position } = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await stores.readStore.apply([], { notes: position });
      const getCheckpoint = jest.spyOn(stores.readStore, 'getCheckpoint');
      await polling(1000).await('notes');
      // One look at the checkpoint, no polling round.
      expect(getCheckpoint).toHaveBeenCalledTimes(1);
    });

    it('waits while the checkpoint is behind the head, and answers once it reaches it', async () => {
      const first = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await stores.readStore.apply([], { notes: first.position });
      const { position } = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      const looked = jest.spyOn(stores.readStore, 'getCheckpoint');
      const waiting = polling(600_000).await('notes');
      expect(await settledYet(waiting, looked)).toBe(false);
      await stores.readStore.apply([], { notes: position });
      await expect(waiting).resolves.toBeUndefined();
    });

    it('waits for the lowest checkpoint among the projections that write the collection', async () => {
      const second: Projection = { ...notes, name: 'notes-by-author' };
      const { position } = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await stores.readStore.apply([], { notes: position });
      const looked = jest.spyOn(stores.readStore, 'getCheckpoint');
      const waiting = new ReadYourWritesBarrier(
        stores.store,
        new StoredCheckpointProgress(stores.readStore),
        [notes, second],
        600_000,
      ).await('notes');
      expect(await settledYet(waiting, looked)).toBe(false);
      await stores.readStore.apply([], { 'notes-by-author': position });
      await expect(waiting).resolves.toBeUndefined();
    });

    it('times out past the bound with read_model_lagging, naming the collection and the head', async () => {
      const { position } = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      const looked = jest.spyOn(stores.readStore, 'getCheckpoint');
      const error = await polling(120)
        .await('notes')
        .catch((e: unknown) => e);
      // It looked again before giving up (the calls, not a stopwatch).
      expect(looked.mock.calls.length).toBeGreaterThan(1);
      expect(error).toBeInstanceOf(ReadModelLaggingError);
      expect(error).toMatchObject({ code: 'read_model_lagging', collection: 'notes', position, retryAfterSeconds: 1 });
    });

    it('does not wait for a collection no projection writes', async () => {
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await expect(polling(50).await('elsewhere')).resolves.toBeUndefined();
    });
  });

  describe('the read stores.store queries see', () => {
    it('answers a list only once the projector running in this process includes the head', async () => {
      const projector = new Projector(stores.store, stores.readStore, [notes]);
      const consistent = consistentReadStore({
        raw: stores.readStore,
        store: stores.store,
        projections: [notes],
        projector,
        timeoutMs: 2000,
      });
      await stores.store.append(streamName(), [anEvent('Noted'), anEvent('Noted')], 'no_stream');
      const list = consistent.find('notes', { limit: 10 });
      expect(await settledYet(list)).toBe(false);
      await projector.start();
      expect((await list).items).toEqual([{ id: 'tally', n: 2 }]);
      await projector.stop();
    });

    it('answers a list in another process once the stored checkpoint includes the head', async () => {
      const consistent = consistentReadStore({
        raw: stores.readStore,
        store: stores.store,
        projections: [notes],
        projector: null,
        timeoutMs: 600_000,
      });
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      const looked = jest.spyOn(stores.readStore, 'getCheckpoint');
      const get = consistent.get('notes', 'tally');
      expect(await settledYet(get, looked)).toBe(false);
      const projector = new Projector(stores.store, stores.readStore, [notes]);
      await projector.start();
      expect(await get).toEqual({ id: 'tally', n: 1 });
      await projector.stop();
    });

    it('times out on a projector in this process that does not reach the head', async () => {
      const stopped = new Projector(stores.store, stores.readStore, [notes]);
      const consistent = consistentReadStore({
        raw: stores.readStore,
        store: stores.store,
        projections: [notes],
        projector: stopped,
        timeoutMs: 100,
      });
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await expect(consistent.find('notes', { limit: 10 })).rejects.toMatchObject({
        code: 'read_model_lagging',
        collection: 'notes',
      });
    });

    it('never makes writers wait: checkpoints and applies go straight to the adapter', async () => {
      const consistent = consistentReadStore({
        raw: stores.readStore,
        store: stores.store,
        projections: [notes],
        projector: null,
        timeoutMs: 2000,
      });
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      // A write that waited would wait for the bound (2 s) and then fail: it answers at once instead.
      expect(await settledYet(consistent.apply([], { other: 7 }))).toBe(true);
      expect(await consistent.getCheckpoint('other')).toBe(7);
    });
  });
});
