import { MongoReadStore } from './mongo-read-store';
import { describeReadStoreContract } from './read-store.contract';

const url = process.env.MONGO_URL;
// One database per run keeps runs apart on a shared server; each test also uses fresh collections.
const database = `${process.env.MONGO_DATABASE ?? 'payments'}_contract_${Date.now().toString(36)}`;

if (url) {
  describeReadStoreContract('mongodb', async () => new MongoReadStore(url, database), 60_000);

  it('refuses a read model named like the checkpoints collection', async () => {
    const store = new MongoReadStore(url, database);
    await expect(store.get('checkpoints', 'x')).rejects.toThrow('reserved');
    await store.close();
  });
} else {
  describe('ReadStore contract: mongodb', () => {
    console.warn('ReadStore contract: mongodb skipped: MONGO_URL is not set (e.g. mongodb://localhost:27017)');
    it.skip('skipped: set MONGO_URL to run', () => undefined);
  });
}
