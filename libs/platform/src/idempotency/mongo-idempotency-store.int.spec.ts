import { MongoClient } from 'mongodb';
import { systemClock } from '../clock';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { MongoIdempotencyStore } from './mongo-idempotency-store';

const url = process.env.MONGO_URL;
// One database per run keeps runs apart on a shared server; each test also uses fresh scopes.
const database = `${process.env.MONGO_DATABASE ?? 'payments'}_idempotency_${Date.now().toString(36)}`;

if (url) {
  describeIdempotencyStoreContract('mongodb', async (clock) => new MongoIdempotencyStore(url, database, clock), 60_000);

  describe('MongoIdempotencyStore indexes', () => {
    it('keeps keys unique per scope and lets MongoDB delete expired ones (TTL index on expires_at)', async () => {
      const store = new MongoIdempotencyStore(url, database, systemClock);
      await store.claim({ scope: 'indexes', key: 'k', fingerprint: 'f', owner: 'o', leaseMs: 1_000, ttlMs: 1_000 });
      await store.close();
      const client = new MongoClient(url);
      try {
        const indexes = await client.db(database).collection('idempotency_keys').indexes();
        expect(indexes.find((i) => i.name === 'scope_key')).toMatchObject({ key: { scope: 1, key: 1 }, unique: true });
        expect(indexes.find((i) => i.name === 'expiry_ttl')).toMatchObject({
          key: { expires_at: 1 },
          expireAfterSeconds: 0,
        });
      } finally {
        await client.close();
      }
    });
  });
} else {
  describe('IdempotencyStore contract: mongodb', () => {
    console.warn('IdempotencyStore contract: mongodb skipped: MONGO_URL is not set (e.g. mongodb://localhost:27017)');
    it.skip('skipped: set MONGO_URL to run', () => undefined);
  });
}
