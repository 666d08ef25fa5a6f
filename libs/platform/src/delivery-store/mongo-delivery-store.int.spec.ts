import { describeDeliveryStoreContract } from './delivery-store.contract';
import { MongoDeliveryStore } from './mongo-delivery-store';

const url = process.env.MONGO_URL;
// One database per run keeps runs apart on a shared server; each test also uses fresh ids.
const database = `${process.env.MONGO_DATABASE ?? 'payments'}_deliveries_${Date.now().toString(36)}`;

if (url) {
  describeDeliveryStoreContract('mongodb', async () => new MongoDeliveryStore(url, database), 60_000);
} else {
  describe('DeliveryStore contract: mongodb', () => {
    console.warn('DeliveryStore contract: mongodb skipped: MONGO_URL is not set (e.g. mongodb://localhost:27017)');
    it.skip('skipped: set MONGO_URL to run', () => undefined);
  });
}
