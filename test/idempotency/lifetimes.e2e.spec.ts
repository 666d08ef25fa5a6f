import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteIdempotencyStore } from '@app/platform/idempotency/sqlite-idempotency-store';
import { fingerprintOf } from '../../apps/api/src/http/idempotency/idempotency-key';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { accountBody, accountsOf, holdNextCommand, replayed, uniqueKey, until, withKey } from './helpers';

/** The stored entry of `key` in the app's idempotency store. */
function entryOf(t: TestApp, key: string): { lease_until: number; expires_at: number } {
  const db = new Database(join(t.dataDir, 'idempotency.db'), { readonly: true });
  try {
    return db.prepare('SELECT lease_until, expires_at FROM idempotency_keys WHERE key = ?').get(key) as {
      lease_until: number;
      expires_at: number;
    };
  } finally {
    db.close();
  }
}

/**
 * Decisions §13 over time, with the lifetimes shortened (IDEMPOTENCY_TTL_SECONDS,
 * IDEMPOTENCY_LEASE_SECONDS): an answer expires after its time-to-live, and a key left running by
 * a process that died runs again once its lease has run out.
 */
describe('Idempotency-Key lifetimes', () => {
  let t: TestApp;
  let organization: string;

  beforeAll(async () => {
    t = await startTestApp({ IDEMPOTENCY_TTL_SECONDS: '1', IDEMPOTENCY_LEASE_SECONDS: '1' });
    organization = (await t.http.get('/api-keys/current').set(bearer(KEYS.sandbox)).expect(200)).body.organization_id;
  });
  afterAll(() => t.close());

  it('expires an answer after IDEMPOTENCY_TTL_SECONDS: the key then runs again, even another request', async () => {
    const own = await approvedEntity(t);
    const key = uniqueKey('ttl');
    const sent = t.clock.now();
    const first = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
    const answered = t.clock.now();
    // Kept IDEMPOTENCY_TTL_SECONDS from the request (the stored expiry, not a stopwatch: issue 32).
    const { expires_at } = entryOf(t, key);
    expect(expires_at).toBeGreaterThanOrEqual(sent + 1_000);
    expect(expires_at).toBeLessThanOrEqual(answered + 1_000);
    // Its second passes on the app's clock (the idempotency store's), rather than waited for.
    t.clock.advance(1_001);
    const fresh = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own));
    expect([fresh.status, replayed(fresh)]).toEqual([201, false]);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect((await accountsOf(t, own)).sort()).toEqual([first.body.id, fresh.body.id].sort());
    t.clock.advance(1_001);
    await t.http
      .post('/accounts')
      .set(withKey(key))
      .send(accountBody(own, { currency: 'EUR' }))
      .expect(201);
  });

  it('keeps a request running longer than its lease: it renews the lease while it runs', async () => {
    // A lease of 3 s renewed every second: a busy machine stalling this process for less than 2 s cannot lose it.
    const t = await startTestApp({ IDEMPOTENCY_TTL_SECONDS: '1', IDEMPOTENCY_LEASE_SECONDS: '3' });
    const own = await approvedEntity(t);
    const key = uniqueKey('long');
    const held = holdNextCommand(t);
    try {
      const first = t.http
        .post('/accounts')
        .set(withKey(key))
        .send(accountBody(own))
        .then((r) => r);
      await held.entered;
      // Three renewals seen in the store (the claim is renewed every third of a lease), the key busy throughout.
      const leases = new Set<number>();
      await until(
        async () => {
          expect((await t.http.post('/accounts').set(withKey(key)).send(accountBody(own))).status).toBe(409);
          return leases.add(entryOf(t, key).lease_until).size;
        },
        (seen) => seen > 3,
        'three renewals of the lease',
      );
      held.release();
      expect((await first).status).toBe(201);
      expect((await accountsOf(t, own)).length).toBe(1);
    } finally {
      held.release();
      held.restore();
      await t.close();
    }
  });

  it('takes over a key claimed by a process that died, once its lease has run out', async () => {
    const own = await approvedEntity(t);
    const key = uniqueKey('crash');
    const body = accountBody(own);
    // What a process that claimed the key and died leaves in the shared store: a claim nobody renews.
    const dead = new SqliteIdempotencyStore(join(t.dataDir, 'idempotency.db'), t.clock);
    const claimed = await dead.claim({
      scope: `${organization}:sandbox`,
      key,
      fingerprint: fingerprintOf({ method: 'POST', url: '/accounts', body }),
      owner: 'dead-process',
      leaseMs: 3_600_000,
      ttlMs: 86_400_000,
    });
    await dead.close();
    expect(claimed).toEqual({ outcome: 'claimed', takenOver: false });
    const busy = await t.http.post('/accounts').set(withKey(key)).send(body).expect(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
    // Its lease runs out: the app's clock moves past it (rather than the test waiting an hour).
    t.clock.advance(3_600_001);
    const ran = await t.http.post('/accounts').set(withKey(key)).send(body);
    expect([ran.status, replayed(ran)]).toEqual([201, false]);
    const again = await t.http.post('/accounts').set(withKey(key)).send(body).expect(201);
    expect([replayed(again), again.body.id]).toEqual([true, ran.body.id]);
    expect(await accountsOf(t, own)).toEqual([ran.body.id]);
  });
});

describe('Idempotency-Key and the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
  });
  afterAll(() => t.close());

  it('does not store a 429: the same request under the key runs once the bucket refills', async () => {
    const own = await approvedEntity(t);
    const post = (key: string) => t.http.post('/accounts').set(withKey(key)).send(accountBody(own));
    // A key whose first answer is a 429: empty the bucket, then send it (a fresh key if a token came back meanwhile).
    let key = '';
    for (let attempt = 0; !key && attempt < 20; attempt++) {
      await until(
        () => t.http.get('/api-keys/current').set(bearer(KEYS.sandbox)),
        (r) => r.status === 429,
        'an empty bucket',
      );
      const candidate = uniqueKey('429');
      const res = await post(candidate);
      if (res.status === 429) {
        expect(res.body.code).toBe('rate_limited');
        key = candidate;
      }
    }
    expect(key).not.toBe('');
    const ran = await until(
      () => post(key),
      (r) => r.status !== 429,
      'the bucket to refill',
    );
    expect([ran.status, replayed(ran)]).toEqual([201, false]);
  });
});
