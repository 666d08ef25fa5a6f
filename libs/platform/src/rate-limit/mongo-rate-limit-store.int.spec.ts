import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { MongoRateLimitStore } from './mongo-rate-limit-store';

const url = process.env.MONGO_URL;
// One database per run keeps runs apart on a shared server; each test also uses fresh keys.
const database = `${process.env.MONGO_DATABASE ?? 'payments'}_rate_limits_${Date.now().toString(36)}`;

if (url) {
  describeRateLimitStoreContract('mongodb', async (clock) => new MongoRateLimitStore(url, database, clock), 60_000);
} else {
  describe('RateLimitStore contract: mongodb', () => {
    console.warn('RateLimitStore contract: mongodb skipped: MONGO_URL is not set (e.g. mongodb://localhost:27017)');
    it.skip('skipped: set MONGO_URL to run', () => undefined);
  });
}
