import { approvedEntity } from '../support/fixtures';
import { openAccount } from '../accounts/accounts-helpers';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { Receiver } from './receiver';
import {
  eventually,
  fastWorkerEnv,
  logsOf,
  requireTestCa,
  startWebhookApp,
  storedDeliveries,
  webhookTo,
} from './webhooks-helpers';

/**
 * Decisions §15, resend and recover, through HTTP to a real HTTPS receiver that verifies every
 * delivery with the `standardwebhooks` package. Both add attempts to the delivery store and
 * nothing to the log.
 */
describe('webhook resend and recover (decisions §15)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  const down = new Set<string>();

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    // A path in `down` answers 503: the endpoint's outage.
    receiver.responder = (path) => ({ status: down.has(path) ? 503 : 200 });
    t = await startWebhookApp({ WEBHOOK_RETRY_SCHEDULE_MS: '0,300,300' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const failedDeliveries = (hook: string, n: number) =>
    eventually(
      () => storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook && d.status === 'failed'),
      (found) => found.length >= n,
    );

  it('resends one delivery: the same body and webhook-id, signed anew, logged with the next attempt, even after a success', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Resend');
    down.add('/resend');
    const hook = await webhookTo(t, receiver, '/resend', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    await t.settle();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    // Three attempts (the schedule has three entries), all answered 503: the delivery has failed.
    await failedDeliveries(hook.id, 1);
    const first = receiver.on('/resend')[0];
    expect(receiver.on('/resend')).toHaveLength(3);
    down.delete('/resend');

    const eventId = first.payload.id;
    const res = await t.http
      .post(`/entity-webhooks/${hook.id}/resend`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, event_id: eventId });
    expect([res.status, res.body]).toEqual([
      202,
      { status: 'success', data: { webhook_id: hook.id, event_id: eventId } },
    ]);
    const resent = (
      await eventually(
        () => receiver.on('/resend'),
        (r) => r.length >= 4,
      )
    )[3];
    expect(resent.body).toBe(first.body);
    expect(resent.headers['webhook-id']).toBe(first.headers['webhook-id']);
    const logs = await eventually(
      () => logsOf(t, entity, { webhook_id: hook.id }),
      (l) => l.length >= 4,
    );
    expect(logs.map((l) => [l.attempt, l.status, l.event_id])).toEqual([
      [4, 'succeeded', eventId],
      [3, 'failed', eventId],
      [2, 'failed', eventId],
      [1, 'failed', eventId],
    ]);
    expect(logs[0].request.body).toBe(first.body);

    // Once more after the success: one more attempt, numbered 5, and never retried.
    await t.http
      .post(`/entity-webhooks/${hook.id}/resend`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, event_id: eventId })
      .expect(202);
    const again = await eventually(
      () => logsOf(t, entity, { webhook_id: hook.id }),
      (l) => l.length >= 5,
    );
    expect([again[0].attempt, again[0].status]).toEqual([5, 'succeeded']);
    expect(receiver.on('/resend')[4].body).toBe(first.body);

    // Asked for by name, a resend goes even when the webhook no longer subscribes to the event (it was due then).
    await t.http
      .patch(`/entity-webhooks/${hook.id}`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, enabled_events: { accounts: ['updated'] } })
      .expect(200);
    await t.http
      .post(`/entity-webhooks/${hook.id}/resend`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, event_id: eventId })
      .expect(202);
    const unsubscribed = await eventually(
      () => logsOf(t, entity, { webhook_id: hook.id }),
      (l) => l.length >= 6,
    );
    expect([unsubscribed[0].attempt, unsubscribed[0].status]).toEqual([6, 'succeeded']);
  });

  it('answers 404 for an event the webhook was never due, and for a webhook of another entity', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'NeverDue');
    const before = await webhookTo(t, receiver, '/never-before', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    const unsubscribed = await webhookTo(t, receiver, '/never-unsubscribed', {
      entity_id: entity,
      enabled_events: { accounts: ['updated'] },
    });
    await t.settle();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    const delivered = await eventually(
      () => receiver.on('/never-before'),
      (r) => r.length >= 1,
    );
    const eventId = delivered[0].payload.id;
    const after = await webhookTo(t, receiver, '/never-after', { entity_id: entity, enabled_events: { all: true } });
    const resend = (hook: string, body: Record<string, unknown>) =>
      t.http.post(`/entity-webhooks/${hook}/resend`).set(bearer(KEYS.sandbox)).send(body);
    for (const hook of [unsubscribed.id, after.id]) {
      const res = await resend(hook, { entity_id: entity, event_id: eventId });
      expect([res.status, res.body.code]).toEqual([404, 'event_not_found']);
    }
    const other = await approvedEntity(t, KEYS.sandbox, 'Other');
    expect((await resend(before.id, { entity_id: other, event_id: eventId })).status).toBe(404);
    expect((await resend(before.id, { entity_id: entity, event_id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).body.code).toBe(
      'event_not_found',
    );
    expect((await resend(before.id, { entity_id: entity, event_id: 'nope' })).status).toBe(400);
    // Nothing was sent for any of these.
    expect(receiver.on('/never-before')).toHaveLength(1);
  });

  it('recovers what failed during an outage, in each resource’s order, and nothing that succeeded', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Outage');
    const hook = await webhookTo(t, receiver, '/outage', {
      entity_id: entity,
      enabled_events: { accounts: ['created', 'updated'] },
    });
    await t.settle();
    const since = Date.now();
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await eventually(
      () => receiver.on('/outage'),
      (r) => r.length >= 1,
    );
    // The outage: two updates of one account and another account's creation fail through every retry.
    down.add('/outage');
    for (const amount of [100, 200])
      await t.http
        .post(`/sandbox/accounts/${account.id}/fund`)
        .set(bearer(KEYS.sandbox))
        .send({ amount, currency: 'USD' })
        .expect(201);
    const second = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'GBP' });
    await failedDeliveries(hook.id, 3);
    const duringOutage = receiver.on('/outage').length;
    down.delete('/outage');

    const res = await t.http
      .post(`/entity-webhooks/${hook.id}/recover`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, since: new Date(since).toISOString() });
    expect([res.status, res.body]).toEqual([202, { status: 'success', data: { scheduled: 3 } }]);
    const recovered = (
      await eventually(
        () => receiver.on('/outage').slice(duringOutage),
        (r) => r.length >= 3,
      )
    ).map((r) => r.payload);
    // The account's two updates in their order (available 100, then 300); the other account's creation independently.
    const updates = recovered
      .filter((p) => p.event === 'accounts.updated')
      .map((p) => (p.data as { balance: { available: number } }).balance.available);
    expect(updates).toEqual([100, 300]);
    expect(recovered.filter((p) => p.event === 'accounts.created').map((p) => (p.data as { id: string }).id)).toEqual([
      second.id,
    ]);
    await eventually(
      () => storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id && d.status !== 'succeeded'),
      (left) => left.length === 0,
    );
    // Each recovered delivery's attempt is its fourth (after the three of the outage); the first creation was never sent again.
    const logs = await logsOf(t, entity, { webhook_id: hook.id, status: 'succeeded' });
    expect(logs.map((l) => l.attempt).sort()).toEqual([1, 4, 4, 4]);
    // Nothing failed is left in the window: a second recover schedules nothing.
    const none = await t.http
      .post(`/entity-webhooks/${hook.id}/recover`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, since: String(since) });
    expect(none.body).toEqual({ status: 'success', data: { scheduled: 0 } });
  });

  it('refuses a malformed window', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Window');
    const hook = await webhookTo(t, receiver, '/window', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    const recover = (body: Record<string, unknown>) =>
      t.http
        .post(`/entity-webhooks/${hook.id}/recover`)
        .set(bearer(KEYS.sandbox))
        .send({ entity_id: entity, ...body });
    for (const body of [
      {},
      { since: 'yesterday' },
      { since: '2026-02-30' },
      { since: '2026-05-02', until: '2026-05-01' },
    ]) {
      const res = await recover(body);
      expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
    }
  });
});
