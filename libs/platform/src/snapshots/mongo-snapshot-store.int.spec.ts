import { MongoSnapshotStore } from './mongo-snapshot-store';
import { describeSnapshotStoreContract } from './snapshot-store.contract';

const url = process.env.MONGO_URL;
const database = `${process.env.MONGO_DATABASE ?? 'payments'}_snapshots_${Date.now().toString(36)}`;

if (url) {
  describeSnapshotStoreContract('mongodb', async () => new MongoSnapshotStore(url, database));
} else {
  describe('SnapshotStore contract: mongodb', () => {
    console.warn('SnapshotStore contract: mongodb skipped: MONGO_URL is not set (npm run test:integration sets it)');
    it.skip('skipped: set MONGO_URL to run', () => undefined);
  });
}
