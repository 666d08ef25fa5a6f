import { randomUUID } from 'node:crypto';
import { clockReading, type Clock } from '../clock';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from './idempotency-store.port';

/**
 * What every idempotency store must do (decisions §13), run against each adapter with a clock the
 * test moves. `open` is called more than once: each call is another process on the same storage.
 */
export function describeIdempotencyStoreContract(
  name: string,
  open: (clock: Clock) => Promise<IdempotencyStore>,
  timeout = 10_000,
) {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let now = 1_700_000_000_000;
    const clock = clockReading(() => now);
    let store: IdempotencyStore;
    let other: IdempotencyStore;
    const LEASE = 30_000;
    const TTL = 86_400_000;
    const scope = () => `org_${randomUUID()}:sandbox`;
    const claimOf = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
      scope: 'unset',
      key: 'k-1',
      fingerprint: 'fp-a',
      owner: randomUUID(),
      leaseMs: LEASE,
      ttlMs: TTL,
      ...over,
    });
    // Bytes that are not UTF-8 too: an answer is replayed byte for byte.
    const answer: StoredAnswer = {
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8', location: '/accounts/acc_1' },
      body: Buffer.from([0x7b, 0x7d, 0x00, 0xff, 0xfe]),
    };

    beforeAll(async () => {
      store = await open(clock);
      other = await open(clock);
    }, timeout);
    afterAll(async () => {
      await store.close();
      await other.close();
    });

    it('lets the first request claim a key; the same request again is in use, another request reuses it', async () => {
      const s = scope();
      expect(await store.claim(claimOf({ scope: s }))).toEqual({ outcome: 'claimed', takenOver: false });
      expect(await store.claim(claimOf({ scope: s }))).toEqual({ outcome: 'in_use' });
      expect(await other.claim(claimOf({ scope: s }))).toEqual({ outcome: 'in_use' });
      expect(await store.claim(claimOf({ scope: s, fingerprint: 'fp-b' }))).toEqual({ outcome: 'reused' });
    });

    it('replays a completed answer byte for byte to the same request, from any process, and refuses another request', async () => {
      const s = scope();
      const first = claimOf({ scope: s });
      await store.claim(first);
      expect(await store.complete(s, first.key, first.owner, answer)).toBe(true);
      for (const reader of [store, other]) {
        const again = await reader.claim(claimOf({ scope: s }));
        expect(again.outcome).toBe('replay');
        if (again.outcome !== 'replay') return;
        expect(again.answer.status).toBe(201);
        expect(again.answer.headers).toEqual(answer.headers);
        expect(Buffer.compare(again.answer.body, answer.body)).toBe(0);
      }
      expect(await other.claim(claimOf({ scope: s, fingerprint: 'fp-b' }))).toEqual({ outcome: 'reused' });
      // An answered key is never completed or released again.
      expect(await store.complete(s, first.key, first.owner, { ...answer, status: 500 })).toBe(false);
      await store.release(s, first.key, first.owner);
      expect((await store.claim(claimOf({ scope: s }))).outcome).toBe('replay');
    });

    it('forgets a released claim: the next request with the key runs, whatever its fingerprint', async () => {
      const s = scope();
      const first = claimOf({ scope: s });
      await store.claim(first);
      await other.release(s, first.key, 'not-the-owner');
      expect(await store.claim(claimOf({ scope: s }))).toEqual({ outcome: 'in_use' });
      await store.release(s, first.key, first.owner);
      expect(await other.claim(claimOf({ scope: s, fingerprint: 'fp-b' }))).toEqual({
        outcome: 'claimed',
        takenOver: false,
      });
    });

    it('keeps keys apart per scope', async () => {
      const [a, b] = [scope(), scope()];
      expect((await store.claim(claimOf({ scope: a }))).outcome).toBe('claimed');
      expect((await store.claim(claimOf({ scope: b }))).outcome).toBe('claimed');
      expect((await store.claim(claimOf({ scope: a, key: 'k-2' }))).outcome).toBe('claimed');
    });

    it('hands a claim whose lease ran out (its process died) to the same request, never to another one', async () => {
      const s = scope();
      const dead = claimOf({ scope: s, leaseMs: 1_000 });
      await store.claim(dead);
      now += 999;
      expect(await other.claim(claimOf({ scope: s }))).toEqual({ outcome: 'in_use' });
      now += 1;
      expect(await other.claim(claimOf({ scope: s, fingerprint: 'fp-b' }))).toEqual({ outcome: 'reused' });
      const next = claimOf({ scope: s });
      expect(await other.claim(next)).toEqual({ outcome: 'claimed', takenOver: true });
      // The dead owner, had it only stalled, can neither renew, answer nor release it any more.
      expect(await store.renew(s, dead.key, dead.owner, LEASE)).toBe(false);
      expect(await store.complete(s, dead.key, dead.owner, answer)).toBe(false);
      await store.release(s, dead.key, dead.owner);
      expect(await store.claim(claimOf({ scope: s }))).toEqual({ outcome: 'in_use' });
      expect(await other.complete(s, next.key, next.owner, answer)).toBe(true);
      expect((await store.claim(claimOf({ scope: s }))).outcome).toBe('replay');
    });

    it('keeps a claim whose owner renews its lease, even past the key time-to-live', async () => {
      const s = scope();
      const running = claimOf({ scope: s, leaseMs: 1_000, ttlMs: 1_500 });
      await store.claim(running);
      for (let i = 0; i < 5; i++) {
        now += 800;
        expect(await store.renew(s, running.key, running.owner, 1_000)).toBe(true);
        expect(await other.claim(claimOf({ scope: s }))).toEqual({ outcome: 'in_use' });
      }
      now += 1_000;
      expect((await other.claim(claimOf({ scope: s }))).outcome).toBe('claimed');
    });

    it('expires an answer after its time-to-live: the key then runs any request again', async () => {
      const s = scope();
      const first = claimOf({ scope: s, ttlMs: 5_000, leaseMs: 1_000 });
      await store.claim(first);
      await store.complete(s, first.key, first.owner, answer);
      now += 4_999;
      expect((await other.claim(claimOf({ scope: s, ttlMs: 5_000 }))).outcome).toBe('replay');
      now += 1;
      expect(await other.claim(claimOf({ scope: s, fingerprint: 'fp-b', ttlMs: 5_000 }))).toEqual({
        outcome: 'claimed',
        takenOver: false,
      });
    });

    it('lets exactly one of many concurrent requests, across processes, claim a key', async () => {
      const s = scope();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).claim(claimOf({ scope: s }))),
      );
      expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'in_use')).toHaveLength(19);
    });

    it('lets exactly one of many concurrent requests take over a stale claim', async () => {
      const s = scope();
      await store.claim(claimOf({ scope: s, leaseMs: 10 }));
      now += 10;
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? store : other).claim(claimOf({ scope: s }))),
      );
      expect(outcomes.filter((o) => o.outcome === 'claimed')).toEqual([{ outcome: 'claimed', takenOver: true }]);
    });
  });
}
