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

/** The embedded worker in the all-in-one process delivering to a real HTTPS receiver. */
describe('webhook deliveries (embedded worker)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;

  beforeAll(async () => {
    requireTestCa();
    // Margins for a loaded CI machine: an ordinary answer must never hit the delivery timeout, and
    // the deletion test must land its DELETE well inside the retry delay.
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    t = await startWebhookApp({ WEBHOOK_RETRY_SCHEDULE_MS: '0,3000,3000' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  it('delivers subscribed events, signed, as the resource the API shows', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox);
    await webhookTo(t, receiver, '/subscribed', {
      entity_id: entity,
      enabled_events: { accounts: ['created', 'updated'], inflows: ['completed'] },
    });
    await t.settle();
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await t.http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 5000, currency: 'USD' })
      .expect(201);
    const got = await eventually(
      () => receiver.on('/subscribed'),
      (r) => r.length >= 3,
    );
    const byEvent = Object.fromEntries(got.map((r) => [r.payload.event, r.payload]));
    expect(Object.keys(byEvent).sort()).toEqual(['accounts.created', 'accounts.updated', 'inflows.completed']);
    const shown = (await t.http.get(`/accounts/${account.id}`).set(bearer(KEYS.sandbox)).expect(200)).body;
    expect(byEvent['accounts.updated'].data).toEqual(shown);
    expect(byEvent['accounts.created'].data).toMatchObject({ id: account.id, balance: { available: 0, current: 0 } });
    expect(byEvent['inflows.completed'].data).toMatchObject({
      object: 'transaction',
      account_id: account.id,
      amount: 5000,
      currency: 'USD',
    });
    for (const r of got) {
      expect(r.payload).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        entity_id: entity,
        created: expect.any(Number),
      });
      expect(r.payload.test).toBeUndefined();
      expect(r.headers['webhook-id']).toBe(r.payload.id);
    }
    // account_details.created is not subscribed: nothing more arrives for it.
    await t.http
      .post('/account-details')
      .set(bearer(KEYS.sandbox))
      .send({ account_id: account.id, asset_type: 'fiat' })
      .expect(201);
    await t.http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 1, currency: 'USD' })
      .expect(201);
    const after = await eventually(
      () => receiver.on('/subscribed'),
      (r) => r.length >= 5,
    );
    expect(after.map((r) => r.payload.event).filter((e) => e === 'account_details.created')).toEqual([]);
  });

  it('delivers test events with test: true and realistic data, to the named webhook only', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Tester');
    const hook = await webhookTo(t, receiver, '/tests', {
      entity_id: entity,
      enabled_events: { entities: ['created'] },
    });
    const res = await t.http
      .post('/webhook-tests')
      .set(bearer(KEYS.sandbox))
      .send({ webhook_id: hook.id, entity_id: entity, event_group: 'outflows', event_name: 'completed' })
      .expect(201);
    expect(res.body).toEqual({
      status: 'success',
      message: expect.any(String),
      data: { event_id: expect.stringMatching(/^evt_/) },
    });
    await t.http
      .post('/webhook-tests')
      .set(bearer(KEYS.sandbox))
      .send({ webhook_id: hook.id, entity_id: entity, event_group: 'entities', event_name: 'updated' })
      .expect(201);
    const got = await eventually(
      () => receiver.on('/tests'),
      (r) => r.length >= 2,
    );
    const outflow = got.find((r) => r.payload.event === 'outflows.completed')!.payload;
    expect(outflow).toMatchObject({ id: res.body.data.event_id, test: true, entity_id: entity });
    expect(outflow.data).toMatchObject({
      object: 'transfer',
      entity_id: entity,
      status: 'successful',
      direction: 'outflow',
      amount: expect.any(Number),
    });
    const entityEvent = got.find((r) => r.payload.event === 'entities.updated')!.payload;
    expect(entityEvent.data).toEqual(
      (await t.http.get(`/entities/${entity}`).set(bearer(KEYS.sandbox)).expect(200)).body,
    );
  });

  it('delivers nothing to inactive, expired, deleted or unsubscribed webhooks', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Quiet');
    const events = { accounts: ['created'] };
    await webhookTo(t, receiver, '/control', { entity_id: entity, enabled_events: events });
    const inactive = await webhookTo(t, receiver, '/inactive', {
      entity_id: entity,
      enabled_events: events,
      status: 'inactive',
    });
    const expired = await webhookTo(t, receiver, '/expired', {
      entity_id: entity,
      enabled_events: events,
      expires_in: 1,
    });
    const deleted = await webhookTo(t, receiver, '/deleted', { entity_id: entity, enabled_events: events });
    const unsubscribed = await webhookTo(t, receiver, '/unsubscribed', {
      entity_id: entity,
      enabled_events: { accounts: ['updated'] },
    });
    await t.http
      .delete(`/entity-webhooks/${deleted.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    // Its second passes on the app's clock (not waited for): inactive from then on.
    t.clock.advance(1_001);
    expect(
      (
        await t.http
          .get(`/entity-webhooks/${expired.id}`)
          .query({ entity_id: entity })
          .set(bearer(KEYS.sandbox))
          .expect(200)
      ).body.status,
    ).toBe('inactive');
    await t.settle();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    await eventually(
      () => receiver.on('/control'),
      (r) => r.length >= 1,
    );
    await eventually(
      () => logsOf(t, entity),
      (logs) => logs.length >= 1,
    );
    for (const path of ['/inactive', '/expired', '/deleted', '/unsubscribed']) expect(receiver.on(path)).toEqual([]);
    for (const hook of [inactive, expired, deleted, unsubscribed])
      expect(await logsOf(t, entity, { webhook_id: hook.id })).toEqual([]);
  });

  it('retries after a 500 and after a timeout; both attempts are logged with obfuscated headers', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Retry');
    receiver.responder = (path, n) =>
      path === '/flaky-500' && n === 1
        ? { status: 500 }
        : path === '/flaky-slow' && n === 1
          ? { status: 200, delayMs: 5000 }
          : { status: 200 };
    const h500 = await webhookTo(t, receiver, '/flaky-500', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    const slow = await webhookTo(t, receiver, '/flaky-slow', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    await t.settle();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'GBP' });
    for (const [hook, firstError] of [
      [h500, 'HTTP 500'],
      [slow, 'timed out after 2000 ms'],
    ] as const) {
      const logs = await eventually(
        () => logsOf(t, entity, { webhook_id: hook.id }),
        (l) => l.length >= 2,
      );
      const [second, first] = logs;
      expect([first.attempt, first.status, first.error]).toEqual([1, 'failed', firstError]);
      expect([second.attempt, second.status, second.response.status_code]).toEqual([2, 'succeeded', 200]);
      expect(first.event_id).toBe(second.event_id);
      for (const log of logs) {
        expect(log.request.headers['webhook-signature']).toBe('***');
        expect(log.request.headers['webhook-id']).toBe(log.event_id);
        expect(JSON.parse(log.request.body)).toMatchObject({ id: log.event_id, event: 'accounts.created' });
        expect(log.sent_at).toBeLessThanOrEqual(log.completed_at);
      }
      expect(second.response.headers['set-cookie']).toBe('***');
      expect(second.response.body).toBe(`answer 2 from ${hook === h500 ? '/flaky-500' : '/flaky-slow'}`);
    }
    // 2xx acknowledges: no third attempt, and the stats count both attempts.
    const stats = (
      await t.http.get(`/entity-webhooks/${h500.id}`).query({ entity_id: entity }).set(bearer(KEYS.sandbox)).expect(200)
    ).body.stats;
    expect(stats).toMatchObject({
      deliveries_total: 2,
      deliveries_succeeded: 1,
      deliveries_failed: 1,
      last_response_status: 200,
    });
    expect(await logsOf(t, entity, { webhook_id: h500.id, status: 'failed' })).toHaveLength(1);
    receiver.responder = () => ({ status: 200 });
  });

  it('stops a delivery whose webhook is deleted, including its scheduled retry', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Deleted');
    receiver.responder = (path) => (path === '/always-500' ? { status: 500 } : { status: 200 });
    const hook = await webhookTo(t, receiver, '/always-500', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    await t.settle();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'JPY' });
    await eventually(
      () => receiver.on('/always-500'),
      (r) => r.length >= 1,
    );
    await t.http
      .delete(`/entity-webhooks/${hook.id}`)
      .send({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    const cancelled = await eventually(
      () => storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id && d.status === 'cancelled'),
      (found) => found.length >= 1,
    );
    expect(cancelled[0].cancel_reason).toBe('webhook_deleted');
    expect(receiver.on('/always-500')).toHaveLength(1);
    receiver.responder = () => ({ status: 200 });
  });
});
