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

  const polling = (timeoutMs: number) => new ReadYourWritesBarrier(stores.store, new StoredCheckpointProgress(stores.readStore), [notes], timeoutMs);
  const settledWithin = async (promise: Promise<unknown>, ms: number) => Promise.race([promise.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), ms))]);

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
      const waiting = polling(2000).await('notes');
      expect(await settledWithin(waiting, 60)).toBe(false);
      await stores.readStore.apply([], { notes: position });
      expect(await settledWithin(waiting, 200)).toBe(true);
    });

    it('waits for the lowest checkpoint among the projections that write the collection', async () => {
      const second: Projection = { ...notes, name: 'notes-by-author' };
      const { position } = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await stores.readStore.apply([], { notes: position });
      const waiting = new ReadYourWritesBarrier(stores.store, new StoredCheckpointProgress(stores.readStore), [notes, second], 2000).await('notes');
      expect(await settledWithin(waiting, 60)).toBe(false);
      await stores.readStore.apply([], { 'notes-by-author': position });
      expect(await settledWithin(waiting, 200)).toBe(true);
    });

    it('times out past the bound with read_model_lagging, naming the collection and the head', async () => {
      const { position } = await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      const started = Date.now();
      const error = await polling(120)
        .await('notes')
        .catch((e: unknown) => e);
      expect(Date.now() - started).toBeGreaterThanOrEqual(115);
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
      const consistent = consistentReadStore({ raw: stores.readStore, store: stores.store, projections: [notes], projector, timeoutMs: 2000 });
      await stores.store.append(streamName(), [anEvent('Noted'), anEvent('Noted')], 'no_stream');
      const list = consistent.find('notes', { limit: 10 });
      expect(await settledWithin(list, 60)).toBe(false);
      await projector.start();
      expect((await list).items).toEqual([{ id: 'tally', n: 2 }]);
      await projector.stop();
    });

    it('answers a list in another process once the stored checkpoint includes the head', async () => {
      const consistent = consistentReadStore({ raw: stores.readStore, store: stores.store, projections: [notes], projector: null, timeoutMs: 2000 });
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      const get = consistent.get('notes', 'tally');
      expect(await settledWithin(get, 60)).toBe(false);
      const projector = new Projector(stores.store, stores.readStore, [notes]);
      await projector.start();
      expect(await get).toEqual({ id: 'tally', n: 1 });
      await projector.stop();
    });

    it('times out on a projector in this process that does not reach the head', async () => {
      const stopped = new Projector(stores.store, stores.readStore, [notes]);
      const consistent = consistentReadStore({ raw: stores.readStore, store: stores.store, projections: [notes], projector: stopped, timeoutMs: 100 });
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      await expect(consistent.find('notes', { limit: 10 })).rejects.toMatchObject({ code: 'read_model_lagging', collection: 'notes' });
    });

    it('never makes writers wait: checkpoints and applies go straight to the adapter', async () => {
      const consistent = consistentReadStore({ raw: stores.readStore, store: stores.store, projections: [notes], projector: null, timeoutMs: 2000 });
      await stores.store.append(streamName(), [anEvent('Noted')], 'no_stream');
      expect(await settledWithin(consistent.apply([], { other: 7 }), 50)).toBe(true);
      expect(await consistent.getCheckpoint('other')).toBe(7);
    });
  });
});
