import { ulid } from 'ulid';
import type { SnapshotStore } from './snapshot-store.port';

/** What every SnapshotStore adapter owes the fold. Fresh stream ids per test, so a shared server works. */
export function describeSnapshotStoreContract(name: string, open: () => Promise<SnapshotStore>): void {
  describe(`SnapshotStore contract: ${name}`, () => {
    let store: SnapshotStore;
    let stream: string;
    beforeEach(async () => {
      store = await open();
      stream = `account-${ulid()}`;
    });
    afterEach(() => store.close());

    it('loads null before any save, then the latest snapshot per stream and key', async () => {
      expect(await store.load(stream, 'account:v1')).toBeNull();
      await store.save({ streamId: stream, key: 'account:v1', revision: 99, state: '{"a":1}' });
      await store.save({ streamId: stream, key: 'account:v2', revision: 5, state: '{"b":2}' });
      expect(await store.load(stream, 'account:v1')).toEqual({
        streamId: stream,
        key: 'account:v1',
        revision: 99,
        state: '{"a":1}',
      });
      expect(await store.load(stream, 'account:v2')).toEqual({
        streamId: stream,
        key: 'account:v2',
        revision: 5,
        state: '{"b":2}',
      });
      expect(await store.load(`${stream}-other`, 'account:v1')).toBeNull();
    });

    it('never goes back: an older or equal revision saved late leaves the later one', async () => {
      await store.save({ streamId: stream, key: 'k', revision: 10, state: 'ten' });
      await store.save({ streamId: stream, key: 'k', revision: 7, state: 'seven' });
      await store.save({ streamId: stream, key: 'k', revision: 10, state: 'other ten' });
      expect((await store.load(stream, 'k'))?.state).toBe('ten');
      await store.save({ streamId: stream, key: 'k', revision: 11, state: 'eleven' });
      expect((await store.load(stream, 'k'))?.revision).toBe(11);
    });

    it('keeps every snapshot saved, by revision (as_of folds from the nearest before its point)', async () => {
      expect(await store.revisions(stream, 'k')).toEqual([]);
      for (const revision of [1000, 9, 499, 1000])
        await store.save({ streamId: stream, key: 'k', revision, state: `at ${revision}` });
      await store.save({ streamId: `${stream}-other`, key: 'k', revision: 5, state: 'other' });
      await store.save({ streamId: stream, key: 'k2', revision: 7, state: 'other key' });
      expect(await store.revisions(stream, 'k')).toEqual([9, 499, 1000]);
      expect(await store.loadAt(stream, 'k', 499)).toEqual({
        streamId: stream,
        key: 'k',
        revision: 499,
        state: 'at 499',
      });
      expect(await store.loadAt(stream, 'k', 1000)).toEqual({
        streamId: stream,
        key: 'k',
        revision: 1000,
        state: 'at 1000',
      });
      expect(await store.loadAt(stream, 'k', 500)).toBeNull();
      expect((await store.load(stream, 'k'))?.revision).toBe(1000);
    });
  });
}
