import {
  HANDOFF_GRACE_MS,
  PAUSED,
  type AttemptLog,
  type Delivery,
  type DeliveryStore,
  type NewDelivery,
} from './delivery-store.port';

const ORG = 'org_contract';
let serial = 0;
/** Ids in creation order, unique per run (stores may be shared between runs). */
const nextId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36).padStart(10, '0')}${String(++serial).padStart(6, '0')}${Math.random().toString(36).slice(2, 8)}`;

const T0 = 1_800_000_000_000;
const LEASE = 60_000;

function delivery(webhookId: string, over: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id: nextId('whd'),
    organization_id: ORG,
    mode: 'sandbox',
    entity_id: 'ent_contract',
    webhook_id: webhookId,
    event_id: nextId('evt'),
    event: 'accounts.created',
    test: false,
    payload: '{"id":"evt"}',
    queue: null,
    scheduled: T0,
    due_at: T0,
    ...over,
  };
}

/** A due delivery of one webhook with a given id (for the tests of one store or of the scheduler). */
export const dueDelivery = (id: string, dueAt = T0): NewDelivery => ({
  id,
  organization_id: 'org_1',
  mode: 'sandbox',
  entity_id: 'ent_1',
  webhook_id: 'whk_1',
  event_id: `evt_${id}`,
  event: 'accounts.created',
  test: false,
  payload: '{}',
  queue: null,
  scheduled: dueAt,
  due_at: dueAt,
});

function attemptLog(
  d: Pick<Delivery, 'id' | 'webhook_id' | 'entity_id' | 'event_id' | 'event'>,
  attempt: number,
  status: 'succeeded' | 'failed',
  at: number,
  over: Partial<AttemptLog> = {},
): AttemptLog {
  return {
    id: nextId('whl'),
    delivery_id: d.id,
    organization_id: ORG,
    mode: 'sandbox',
    entity_id: d.entity_id,
    webhook_id: d.webhook_id,
    event_id: d.event_id,
    event: d.event,
    url: 'https://hooks.example.com/in?token=***',
    attempt,
    status,
    request: { method: 'POST', headers: { 'webhook-signature': '***', 'x.dotted': 'kept' }, body: '{"id":"evt"}' },
    query_params: { token: '***', 'a.b': '1' },
    response:
      status === 'succeeded'
        ? { status_code: 200, headers: { 'set-cookie': '***' }, body: 'ok' }
        : { status_code: 500, headers: {}, body: 'no' },
    error: status === 'failed' ? 'HTTP 500' : null,
    duration_ms: 5,
    created: at + 5,
    sent_at: at,
    completed_at: at + 5,
    ...over,
  };
}

const webhook = () => nextId('whk');
const queued = (resource: string, position: number, seq = 0) => ({ queue: { resource, position, seq } });

/**
 * What every delivery store must do (docs/decisions/webhooks.md, "Delivery store"), run against
 * each adapter: scheduling once, queue heads, exclusive claims under a lease, each attempt logged
 * once, the retry schedule's moves, hand-offs, the log list and the statistics.
 */
export function describeDeliveryStoreContract(name: string, open: () => Promise<DeliveryStore>, timeout = 10_000) {
  describe(`DeliveryStore contract: ${name}`, () => {
    let store: DeliveryStore;
    beforeAll(async () => {
      store = await open();
    }, timeout);
    afterAll(() => store.close());
    const due = async (ids: string[], now = T0) => (await store.due(now, 10_000)).filter((id) => ids.includes(id));

    it('schedules a delivery once: the same id again is refused and changes nothing', async () => {
      const d = delivery(webhook());
      expect(await store.schedule(d)).toBe(true);
      expect(await store.schedule({ ...d, payload: 'other', due_at: T0 + 1 })).toBe(false);
      expect(await store.get(d.id)).toEqual({
        ...d,
        status: 'pending',
        attempts: 0,
        head: true,
        finished_at: null,
        cancel_reason: null,
      });
      expect(await store.get('whd_unknown')).toBeNull();
    });

    it('keeps the trace id a delivery was scheduled with, through its claim; none stays none', async () => {
      const traced = delivery(webhook(), { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
      expect(await store.schedule(traced)).toBe(true);
      expect(await store.get(traced.id)).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
      expect(await store.claim(traced.id, T0, LEASE)).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
      const plain = delivery(webhook());
      await store.schedule(plain);
      expect(await store.get(plain.id)).not.toHaveProperty('trace_id');
    });

    it('lists due heads only, the longest due first; a later delivery of a queue waits until the earlier one hands off', async () => {
      const hook = webhook();
      const [a1, a2, b1] = [
        delivery(hook, { ...queued('account-a', 10), due_at: T0 - 5 }),
        delivery(hook, { ...queued('account-a', 11), due_at: T0 - 9 }),
        delivery(hook, { ...queued('account-b', 12), due_at: T0 - 1 }),
      ];
      const later = delivery(hook, { due_at: T0 + 1000 });
      for (const d of [a1, a2, b1, later]) await store.schedule(d);
      expect(await due([a1.id, a2.id, b1.id, later.id])).toEqual([a1.id, b1.id]);
      expect(await due([a1.id, a2.id, b1.id, later.id], T0 + 1000)).toEqual([a1.id, b1.id, later.id]);
      const claimed = await store.claim(a1.id, T0, LEASE);
      await store.record({ log: attemptLog(a1, claimed!.attempts, 'succeeded', T0), next_attempt_at: null });
      // Finished but not handed off: a2 still waits, and a1 comes back after the grace (its worker died).
      expect(await due([a1.id, a2.id])).toEqual([]);
      expect(await due([a1.id, a2.id], T0 + 5 + HANDOFF_GRACE_MS)).toEqual([a1.id]);
      expect(await store.handOff(a1.id)).toBe(a2.id);
      expect(await due([a1.id, a2.id], T0 + 5 + HANDOFF_GRACE_MS)).toEqual([a2.id]);
      expect(await store.handOff(a1.id)).toBeNull();
      expect(await store.claim(a2.id, T0, LEASE)).toMatchObject({ attempts: 1 });
    });

    it('schedules many at once in order: the first of each queue is its head, a repeat changes nothing', async () => {
      const hook = webhook();
      const [first, second, other] = [
        delivery(hook, queued('account-m', 30)),
        delivery(hook, queued('account-m', 31)),
        delivery(hook, queued('account-n', 32)),
      ];
      expect(await store.schedule(first)).toBe(true);
      expect(await store.scheduleMany([{ ...first, payload: 'again' }, second, other])).toBe(2);
      expect(await due([first.id, second.id, other.id])).toEqual([first.id, other.id]);
      expect((await store.get(first.id))?.payload).toBe(first.payload);
      expect(await store.scheduleMany([])).toBe(0);
    });

    it('orders a queue by position, then rank within the event', async () => {
      const hook = webhook();
      const [first, second, third] = [
        delivery(hook, queued('account-o', 20, 0)),
        delivery(hook, queued('account-o', 20, 1)),
        delivery(hook, queued('account-o', 21, 0)),
      ];
      for (const d of [first, second, third]) await store.schedule(d);
      const order: string[] = [];
      for (let current: string | null = first.id; current;) {
        order.push(current);
        const claimed = await store.claim(current, T0, LEASE);
        await store.record({ log: attemptLog(claimed!, claimed!.attempts, 'succeeded', T0), next_attempt_at: null });
        current = await store.handOff(current);
      }
      expect(order).toEqual([first.id, second.id, third.id]);
    });

    it('never leaves a queue without a head when a delivery is scheduled while the head finishes', async () => {
      const hook = webhook();
      for (let round = 0; round < 10; round++) {
        const resource = `account-race-${round}`;
        const head = delivery(hook, queued(resource, 1));
        await store.schedule(head);
        const claimed = await store.claim(head.id, T0, LEASE);
        const next = delivery(hook, queued(resource, 2));
        const [, handed] = await Promise.all([
          store.schedule(next),
          store
            .record({ log: attemptLog(head, claimed!.attempts, 'succeeded', T0), next_attempt_at: null })
            .then(() => store.handOff(head.id)),
        ]);
        expect([null, next.id]).toContain(handed);
        expect(await store.get(next.id)).toMatchObject({ head: true });
      }
    });

    it('lets one of many concurrent claims win, none during the lease, and another once it ran out (its worker died)', async () => {
      const d = delivery(webhook());
      await store.schedule(d);
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(d.id, T0, LEASE)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(claims.find(Boolean)).toMatchObject({ attempts: 1, due_at: T0 + LEASE });
      expect(await store.claim(d.id, T0 + LEASE - 1, LEASE)).toBeNull();
      expect(await due([d.id], T0 + LEASE - 1)).toEqual([]);
      expect(await due([d.id], T0 + LEASE)).toEqual([d.id]);
      expect(await store.claim(d.id, T0 + LEASE, LEASE)).toMatchObject({ attempts: 2 });
    });

    it('claims nothing not yet due, not the head, or finished', async () => {
      const hook = webhook();
      const [h, behind] = [delivery(hook, queued('account-c', 1)), delivery(hook, queued('account-c', 2))];
      await store.schedule(h);
      await store.schedule(behind);
      expect(await store.claim(h.id, T0 - 1, LEASE)).toBeNull();
      expect(await store.claim(behind.id, T0, LEASE)).toBeNull();
      await store.cancel(h.id, 'webhook_deleted', T0);
      expect(await store.claim(h.id, T0 * 2, LEASE)).toBeNull();
      expect(await store.get(h.id)).toMatchObject({
        status: 'cancelled',
        cancel_reason: 'webhook_deleted',
        finished_at: T0,
      });
      expect(await store.cancel(h.id, 'webhook_inactive', T0)).toBe(false);
      expect(await store.handOff(h.id)).toBe(behind.id);
    });

    it('moves a failed attempt to its retry time, logs each attempt once, and fails after the last', async () => {
      const d = delivery(webhook());
      await store.schedule(d);
      await store.claim(d.id, T0, LEASE);
      const first = attemptLog(d, 1, 'failed', T0);
      expect(await store.record({ log: first, next_attempt_at: T0 + 1000 })).toMatchObject({
        status: 'pending',
        due_at: T0 + 1000,
        attempts: 1,
      });
      // The same attempt recorded again (a retried write): one entry, one count, the delivery unmoved.
      expect(await store.record({ log: { ...first, id: nextId('whl') }, next_attempt_at: T0 + 9999 })).toMatchObject({
        status: 'pending',
        due_at: T0 + 1000,
      });
      expect(await store.claim(d.id, T0 + 999, LEASE)).toBeNull();
      await store.claim(d.id, T0 + 1000, LEASE);
      expect(await store.record({ log: attemptLog(d, 2, 'failed', T0 + 1000), next_attempt_at: null })).toMatchObject({
        status: 'failed',
        finished_at: T0 + 1005,
      });
      const logs = await store.logs(
        { organization_id: ORG, mode: 'sandbox', entity_id: d.entity_id, webhook_id: d.webhook_id },
        { limit: 10 },
      );
      expect(logs.items.map((l) => [l.attempt, l.status])).toEqual([
        [2, 'failed'],
        [1, 'failed'],
      ]);
      expect(logs.items[1]).toEqual(first);
      expect((await store.stats([d.webhook_id])).get(d.webhook_id)).toEqual({
        deliveries_total: 2,
        deliveries_succeeded: 0,
        deliveries_failed: 2,
        last_delivery_at: T0 + 1005,
        last_response_status: 500,
        // Never succeeded: failing since its first failure.
        failing_since: T0 + 5,
      });
    });

    it('logs a late attempt whose lease ran out without letting it move the delivery, and ends on any 2xx', async () => {
      const d = delivery(webhook());
      await store.schedule(d);
      await store.claim(d.id, T0, LEASE);
      await store.claim(d.id, T0 + LEASE, LEASE);
      expect(
        await store.record({ log: attemptLog(d, 1, 'failed', T0 + LEASE + 1), next_attempt_at: T0 + 1 }),
      ).toMatchObject({ status: 'pending', attempts: 2, due_at: T0 + 2 * LEASE });
      expect(
        await store.record({ log: attemptLog(d, 1, 'succeeded', T0 + LEASE + 2), next_attempt_at: null }),
      ).toMatchObject({ status: 'pending' });
      expect(
        await store.record({ log: attemptLog(d, 2, 'succeeded', T0 + LEASE + 3), next_attempt_at: null }),
      ).toMatchObject({ status: 'succeeded' });
      expect(await store.claim(d.id, T0 * 2, LEASE)).toBeNull();
      expect((await store.stats([d.webhook_id])).get(d.webhook_id)).toMatchObject({
        deliveries_total: 2,
        deliveries_succeeded: 1,
        deliveries_failed: 1,
        last_response_status: 200,
      });
    });

    it('lists logs newest first within one organization, mode and entity, by webhook, event and status, a page at a time', async () => {
      const entity = nextId('ent');
      const [h1, h2] = [webhook(), webhook()];
      const written: AttemptLog[] = [];
      for (let i = 0; i < 6; i++) {
        const d = delivery(i % 2 ? h2 : h1, {
          entity_id: entity,
          event: i < 3 ? 'accounts.created' : 'inflows.completed',
        });
        await store.schedule(d);
        await store.claim(d.id, T0, LEASE);
        const log = attemptLog(d, 1, i % 3 === 0 ? 'failed' : 'succeeded', T0 + i);
        written.push(log);
        await store.record({ log, next_attempt_at: T0 + 1000 });
      }
      await store.restoreAttempt({
        ...attemptLog({ ...delivery(h1), entity_id: entity }, 1, 'failed', T0),
        mode: 'live',
      });
      await store.restoreAttempt({
        ...attemptLog({ ...delivery(h1), entity_id: entity }, 1, 'failed', T0),
        organization_id: 'org_other',
      });
      const scope = { organization_id: ORG, mode: 'sandbox' as const, entity_id: entity };
      const ids = async (filter: object, page = { limit: 100 }) =>
        (await store.logs({ ...scope, ...filter }, page)).items.map((l) => l.id);
      const newestFirst = [...written].reverse();
      expect(await ids({})).toEqual(newestFirst.map((l) => l.id));
      expect(await ids({ webhook_id: h2 })).toEqual(newestFirst.filter((l) => l.webhook_id === h2).map((l) => l.id));
      expect(await ids({ event: 'inflows.completed' })).toEqual(
        newestFirst.filter((l) => l.event === 'inflows.completed').map((l) => l.id),
      );
      expect(await ids({ status: 'failed', webhook_id: h1 })).toEqual(
        newestFirst.filter((l) => l.status === 'failed' && l.webhook_id === h1).map((l) => l.id),
      );
      const first = await store.logs(scope, { limit: 4 });
      expect([first.items.length, first.hasMore]).toEqual([4, true]);
      const second = await store.logs(scope, { limit: 4, before: first.items[3].id });
      expect([second.items.map((l) => l.id), second.hasMore]).toEqual([newestFirst.slice(4).map((l) => l.id), false]);
    });

    it('counts statistics per webhook, the last delivery being the latest completed', async () => {
      const hook = webhook();
      const d = delivery(hook);
      await store.restoreAttempt(attemptLog(d, 2, 'succeeded', T0 + 50));
      await store.restoreAttempt(attemptLog(d, 1, 'failed', T0));
      await store.restoreAttempt({
        ...attemptLog(d, 3, 'failed', T0 + 100),
        response: null,
        error: 'connect ECONNREFUSED',
      });
      const stats = await store.stats([hook, webhook()]);
      expect([...stats.keys()]).toEqual([hook]);
      // The latest attempt failed: failing since the last success.
      expect(stats.get(hook)).toEqual({
        deliveries_total: 3,
        deliveries_succeeded: 1,
        deliveries_failed: 2,
        last_delivery_at: T0 + 105,
        last_response_status: null,
        failing_since: T0 + 55,
      });
      await store.restoreAttempt(attemptLog(d, 4, 'succeeded', T0 + 200));
      expect((await store.stats([hook])).get(hook)).toMatchObject({ failing_since: null });
      expect(await store.stats([])).toEqual(new Map());
    });

    it('restores what an older log recorded once, with pending queues headed in order', async () => {
      const hook = webhook();
      const base = {
        ...delivery(hook),
        status: 'pending' as const,
        attempts: 0,
        head: false,
        finished_at: null,
        cancel_reason: null,
      };
      const done: Delivery = {
        ...base,
        id: nextId('whd'),
        ...queued('account-r', 1),
        status: 'succeeded',
        attempts: 1,
        finished_at: T0,
      };
      const retrying: Delivery = {
        ...base,
        id: nextId('whd'),
        ...queued('account-r', 2),
        attempts: 1,
        due_at: T0 + 500,
      };
      const behind: Delivery = { ...base, id: nextId('whd'), ...queued('account-r', 3) };
      const test: Delivery = { ...base, id: nextId('whd'), test: true };
      for (const d of [done, retrying, behind, test]) expect(await store.restore(d)).toBe(true);
      expect(await store.restore({ ...retrying, attempts: 7 })).toBe(false);
      expect(await store.get(done.id)).toMatchObject({ status: 'succeeded', head: false });
      expect(await store.get(retrying.id)).toMatchObject({ head: true, attempts: 1, due_at: T0 + 500 });
      expect(await store.get(behind.id)).toMatchObject({ head: false });
      expect(await store.get(test.id)).toMatchObject({ head: true });
      const log = attemptLog(done, 1, 'succeeded', T0);
      expect(await store.restoreAttempt(log)).toBe(true);
      expect(await store.restoreAttempt(log)).toBe(false);
      expect((await store.stats([hook])).get(hook)).toMatchObject({ deliveries_total: 1 });
    });

    it('pauses a delivery of an inactive webhook, keeping it, and resumes its webhook’s paused ones only', async () => {
      const [hook, other] = [webhook(), webhook()];
      const d = delivery(hook);
      const o = delivery(other);
      for (const x of [d, o]) {
        await store.schedule(x);
        expect(await store.pause(x.id)).toBe(true);
      }
      expect(await due([d.id, o.id], T0 * 2)).toEqual([]);
      expect(await store.get(d.id)).toMatchObject({ status: 'pending', head: true, due_at: PAUSED });
      expect(await store.resume(hook, T0 + 7)).toBe(1);
      expect(await due([d.id, o.id], T0 + 7)).toEqual([d.id]);
      expect(await store.resume(hook, T0 + 8)).toBe(0);
    });

    it('resends a finished delivery as a new one: same payload and event, no queue, numbered after every attempt so far', async () => {
      const hook = webhook();
      const d = delivery(hook, queued('account-s', 1));
      await store.schedule(d);
      expect(await store.resend(d.id, nextId('whd'), T0)).toEqual({ refused: 'pending' });
      expect(await store.resend(nextId('whd'), nextId('whd'), T0)).toEqual({ refused: 'unknown' });
      await store.claim(d.id, T0, LEASE);
      await store.record({ log: attemptLog(d, 1, 'succeeded', T0), next_attempt_at: null });
      const [r1, r2] = [nextId('whd'), nextId('whd')];
      const first = await store.resend(d.id, r1, T0 + 100);
      expect(first).toEqual({
        resend: expect.objectContaining({
          id: r1,
          resend_of: d.id,
          event_id: d.event_id,
          payload: d.payload,
          queue: null,
          head: true,
          status: 'pending',
          attempts: 1,
          due_at: T0 + 100,
        }),
      });
      // A second resend before the first was attempted still takes the number after it.
      await store.resend(d.id, r2, T0 + 101);
      expect((await store.claim(r1, T0 + 100, LEASE))?.attempts).toBe(2);
      expect((await store.claim(r2, T0 + 101, LEASE))?.attempts).toBe(3);
      expect(await due([d.id, r1, r2], T0 + 102)).toEqual([]);
    });

    it('recovers failed deliveries of a window, in queue order, unless their latest resend succeeded, numbering after every attempt', async () => {
      const hook = webhook();
      const fail = async (d: NewDelivery, attempts: number) => {
        await store.schedule(d);
        for (let n = 1; n <= attempts; n++) {
          const claimed = await store.claim(d.id, T0 * 2, LEASE);
          expect(claimed).not.toBeNull();
          await store.record({ log: attemptLog(d, n, 'failed', T0 + n), next_attempt_at: n < attempts ? 0 : null });
          if (n === attempts) await store.handOff(d.id);
        }
      };
      const early = delivery(hook, { ...queued('account-q', 1), scheduled: T0 - 1 });
      const a = delivery(hook, { ...queued('account-q', 2), scheduled: T0 });
      const b = delivery(hook, { ...queued('account-q', 3), scheduled: T0 + 1 });
      const resent = delivery(hook, { ...queued('account-q', 4), scheduled: T0 + 2 });
      const late = delivery(hook, { ...queued('account-q', 5), scheduled: T0 + 10 });
      for (const d of [early, a, b, resent, late]) await fail(d, 2);
      const r = nextId('whd');
      await store.resend(resent.id, r, T0);
      await store.claim(r, T0, LEASE);
      await store.record({ log: attemptLog({ ...resent, id: r }, 3, 'succeeded', T0), next_attempt_at: null });
      expect(await store.recover(hook, T0, T0 + 10, T0 + 20)).toBe(2);
      expect(await store.get(a.id)).toMatchObject({
        status: 'pending',
        head: true,
        attempts: 2,
        retry_base: 2,
        due_at: T0 + 20,
        finished_at: null,
      });
      expect(await store.get(b.id)).toMatchObject({ status: 'pending', head: false });
      for (const d of [early, resent, late]) expect((await store.get(d.id))?.status).toBe('failed');
      expect(await due([a.id, b.id], T0 + 20)).toEqual([a.id]);
      expect((await store.claim(a.id, T0 + 20, LEASE))?.attempts).toBe(3);
      expect(await store.recover(hook, T0, T0 + 10, T0 + 20)).toBe(0);
    });

    it('keeps markers', async () => {
      const name = nextId('marker');
      expect(await store.marker(name)).toBeNull();
      await store.setMarker(name, '42');
      await store.setMarker(name, '43');
      expect(await store.marker(name)).toBe('43');
    });
  });
}
