import { Binary, MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { Clock } from '../clock';
import { mongoClientOptions } from '../mongo-client-options';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredAnswer } from './idempotency-store.port';

interface KeyDocument {
  scope: string;
  key: string;
  fingerprint: string;
  owner: string;
  /** ms; meaningful while `status` is null (running). */
  lease_until: number;
  /** Never before `lease_until`; the TTL index deletes the document after it. */
  expires_at: Date;
  status: number | null;
  headers: Record<string, string> | null;
  body: Binary | null;
}

/** A claim that keeps losing compare-and-set races to other replicas answers "in use" rather than spin. */
const MAX_ATTEMPTS = 20;

/**
 * Keys in the read models' MongoDB database (collection `idempotency_keys`), shared by every API
 * replica: a unique index on (scope, key) makes the first claim an atomic insert; a claimable
 * document (expired, or running under a lease that ran out) is claimed by a compare-and-set on its
 * owner and state, so of two replicas taking it over one wins. A TTL index on `expires_at` deletes
 * expired keys (MongoDB's monitor runs about once a minute, so claims also treat an expired
 * document as absent). Replica clocks are assumed within a few ms of each other.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly client: MongoClient;
  private readonly keys: Collection<KeyDocument>;
  private indexed?: Promise<unknown>;

  constructor(
    url: string,
    database: string,
    private readonly clock: Clock,
  ) {
    this.client = new MongoClient(url, mongoClientOptions(url));
    this.keys = this.client.db(database).collection<KeyDocument>('idempotency_keys');
  }

  private ready(): Promise<unknown> {
    this.indexed ??= Promise.all([
      this.keys.createIndex({ scope: 1, key: 1 }, { unique: true, name: 'scope_key' }),
      this.keys.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expiry_ttl' }),
    ]).catch((error) => {
      this.indexed = undefined;
      throw error;
    });
    return this.indexed;
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    await this.ready();
    const { scope, key } = claim;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const lease = now + claim.leaseMs;
      const fresh = {
        fingerprint: claim.fingerprint,
        owner: claim.owner,
        lease_until: lease,
        expires_at: new Date(Math.max(lease, now + claim.ttlMs)),
        status: null,
        headers: null,
        body: null,
      };
      try {
        await this.keys.insertOne({ scope, key, ...fresh });
        return { outcome: 'claimed', takenOver: false };
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
      }
      const current = await this.keys.findOne({ scope, key });
      if (!current) continue; // expired and deleted between the two steps: insert again
      const expired = current.expires_at.getTime() <= now;
      const stale = current.status === null && current.lease_until <= now && current.fingerprint === claim.fingerprint;
      if (expired || stale) {
        // Compare-and-set on what was read: another replica claiming it meanwhile changes the owner.
        const taken = await this.keys.updateOne(
          { scope, key, owner: current.owner, status: current.status },
          { $set: fresh },
        );
        if (taken.matchedCount === 1) return { outcome: 'claimed', takenOver: !expired };
        continue;
      }
      return classify(current, claim.fingerprint);
    }
    return { outcome: 'in_use' };
  }

  async renew(scope: string, key: string, owner: string, leaseMs: number): Promise<boolean> {
    await this.ready();
    const lease = this.clock.now() + leaseMs;
    const result = await this.keys.updateOne(
      { scope, key, owner, status: null },
      { $set: { lease_until: lease }, $max: { expires_at: new Date(lease) } },
    );
    return result.matchedCount === 1;
  }

  async complete(scope: string, key: string, owner: string, answer: StoredAnswer): Promise<boolean> {
    await this.ready();
    const result = await this.keys.updateOne(
      { scope, key, owner, status: null },
      { $set: { status: answer.status, headers: { ...answer.headers }, body: new Binary(answer.body) } },
    );
    return result.matchedCount === 1;
  }

  async release(scope: string, key: string, owner: string): Promise<void> {
    await this.ready();
    await this.keys.deleteOne({ scope, key, owner, status: null });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

function classify(doc: KeyDocument, fingerprint: string): ClaimOutcome {
  if (doc.fingerprint !== fingerprint) return { outcome: 'reused' };
  if (doc.status === null) return { outcome: 'in_use' };
  const body = doc.body ? Buffer.from(doc.body.buffer) : Buffer.alloc(0);
  return { outcome: 'replay', answer: { status: doc.status, headers: doc.headers ?? {}, body } };
}
