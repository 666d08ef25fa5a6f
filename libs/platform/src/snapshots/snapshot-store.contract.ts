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
      expect(await store.load(stream, 'account:v1')).toEqual({ streamId: stream, key: 'account:v1', revision: 99, state: '{"a":1}' });
      expect(await store.load(stream, 'account:v2')).toEqual({ streamId: stream, key: 'account:v2', revision: 5, state: '{"b":2}' });
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
  });
}
