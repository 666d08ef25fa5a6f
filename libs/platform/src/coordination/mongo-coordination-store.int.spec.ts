import { describeCoordinationStoreContract } from './coordination-store.contract';
import { MongoCoordinationStore } from './mongo-coordination-store';

const url = process.env.MONGO_URL;
// One database per run keeps runs apart on a shared server; each test also uses fresh names.
const database = `${process.env.MONGO_DATABASE ?? 'payments'}_coordination_${Date.now().toString(36)}`;

if (url) {
  describeCoordinationStoreContract(
    'mongodb',
    async (clock) => new MongoCoordinationStore(url, database, clock),
    60_000,
  );
} else {
  describe('CoordinationStore contract: mongodb', () => {
    console.warn('CoordinationStore contract: mongodb skipped: MONGO_URL is not set (e.g. mongodb://localhost:27017)');
    it.skip('skipped: set MONGO_URL to run', () => undefined);
  });
}
