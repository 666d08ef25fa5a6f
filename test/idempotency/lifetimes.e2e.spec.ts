import { join } from 'node:path';
import { SqliteIdempotencyStore } from '@app/platform/idempotency/sqlite-idempotency-store';
import { fingerprintOf } from '../../apps/api/src/http/idempotency/idempotency-key';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { accountBody, accountsOf, holdNextCommand, replayed, uniqueKey, until, withKey } from './helpers';

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
    const first = await t.http.post('/accounts').set(withKey(key)).send(accountBody(own)).expect(201);
    const started = Date.now();
    const post = () => t.http.post('/accounts').set(withKey(key)).send(accountBody(own));
    const fresh = await until(post, (r) => !replayed(r), 'the answer to expire');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect((await accountsOf(t, own)).sort()).toEqual([first.body.id, fresh.body.id].sort());
    await until(
      () =>
        t.http
          .post('/accounts')
          .set(withKey(key))
          .send(accountBody(own, { currency: 'EUR' })),
      (r) => r.status === 201,
      'the key to expire again',
    );
  });

  it('keeps a request running longer than its lease: it renews the lease while it runs', async () => {
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
      // Three leases long: the claim is renewed every third of one.
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline) {
        expect((await t.http.post('/accounts').set(withKey(key)).send(accountBody(own))).status).toBe(409);
        await new Promise((r) => setTimeout(r, 250));
      }
      held.release();
      expect((await first).status).toBe(201);
    } finally {
      held.release();
      held.restore();
    }
    expect((await accountsOf(t, own)).length).toBe(1);
  });

  it('takes over a key claimed by a process that died, once its lease has run out', async () => {
    const own = await approvedEntity(t);
    const key = uniqueKey('crash');
    const body = accountBody(own);
    // What a process that claimed the key and died leaves in the shared store: a claim nobody renews.
    const dead = new SqliteIdempotencyStore(join(t.dataDir, 'idempotency.db'));
    const claimed = await dead.claim({
      scope: `${organization}:sandbox`,
      key,
      fingerprint: fingerprintOf({ method: 'POST', url: '/accounts', body }),
      owner: 'dead-process',
      leaseMs: 1_000,
      ttlMs: 86_400_000,
    });
    await dead.close();
    expect(claimed).toEqual({ outcome: 'claimed', takenOver: false });
    const started = Date.now();
    const busy = await t.http.post('/accounts').set(withKey(key)).send(body).expect(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
    const ran = await until(
      () => t.http.post('/accounts').set(withKey(key)).send(body),
      (r) => r.status !== 409,
      'the dead claim to be taken over',
    );
    expect(Date.now() - started).toBeLessThan(3_000);
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
