import { PlatformLifecycle } from '@app/platform/platform.module';
import { openAccount } from '../accounts/accounts-helpers';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { Receiver, type Received } from './receiver';
import {
  eventually,
  fastWorkerEnv,
  requireTestCa,
  startWebhookApp,
  storedDeliveries,
  webhookTo,
} from './webhooks-helpers';

/** The webhooks each account's `accounts.created` was routed to (the router's decision), from the delivery store. */
function routedFor(dataDir: string, accountId: string): string[] {
  return storedDeliveries(dataDir)
    .filter((d) => d.event === 'accounts.created' && JSON.parse(d.payload).data.id === accountId)
    .map((d) => d.webhook_id)
    .sort();
}

const aboutAccount = (r: Received) => String(r.payload.data.account_id ?? r.payload.data.id);

/** Decisions §9: which webhooks get an event is decided at its position in the log; one resource's deliveries go out in order. */
describe('webhook routing at the event position, and delivery order', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;

  beforeAll(async () => {
    requireTestCa();
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

  it('sends an event to a webhook created just before it and not to one deleted just before, with the projector stopped', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Position');
    const events = { accounts: ['created'] };
    const gone = await webhookTo(t, receiver, '/gone', { entity_id: entity, enabled_events: events });
    const projector = t.app.get(PlatformLifecycle).projector;
    // No read model moves from here on: routing must come from the log alone.
    await projector.stop();
    const created: string[] = [];
    const accounts: string[] = [];
    try {
      await t.http
        .delete(`/entity-webhooks/${gone.id}`)
        .query({ entity_id: entity })
        .set(bearer(KEYS.sandbox))
        .expect(200);
      for (const path of ['/fresh-0', '/fresh-1', '/fresh-2']) {
        created.push((await webhookTo(t, receiver, path, { entity_id: entity, enabled_events: events })).id);
        accounts.push((await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' })).id);
      }
      // Each account goes to the webhooks created before it, and never to the deleted one.
      const expected = accounts.map((_, i) => created.slice(0, i + 1).sort());
      const routed = await eventually(
        () => accounts.map((id) => routedFor(t.dataDir, id)),
        (r) => JSON.stringify(r) === JSON.stringify(expected),
      );
      expect(routed).toEqual(expected);
    } finally {
      await projector.start();
    }
    const got = await eventually(
      () => receiver.on('/fresh-0'),
      (r) => r.length >= 3,
    );
    expect(got.map((r) => r.payload.data.id)).toEqual(expect.arrayContaining(accounts));
    // Each webhook's deliveries go out on their own schedule: wait for this one's too.
    const fresh2 = await eventually(
      () => receiver.on('/fresh-2'),
      (r) => r.length >= 1,
    );
    expect(fresh2.map((r) => r.payload.data.id)).toEqual(accounts.slice(2));
    expect(receiver.on('/gone')).toEqual([]);
    expect(accounts.map((id) => routedFor(t.dataDir, id))).not.toContainEqual(expect.arrayContaining([gone.id]));
  });

  it("delivers one resource's events in order, a later one waiting while an earlier one is retried; other resources do not wait", async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Ordered');
    receiver.responder = (path, n) => ({ status: path === '/ordered' && n === 1 ? 500 : 200 });
    await webhookTo(t, receiver, '/ordered', {
      entity_id: entity,
      enabled_events: { accounts: ['created', 'updated'], inflows: ['completed'] },
    });
    const a = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    for (const amount of [100, 200])
      await t.http
        .post(`/sandbox/accounts/${a.id}/fund`)
        .set(bearer(KEYS.sandbox))
        .send({ amount, currency: 'USD' })
        .expect(201);
    const b = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });

    const got = await eventually(
      () => receiver.on('/ordered'),
      (r) => r.length >= 7,
    );
    const ofA = got
      .filter((r) => aboutAccount(r) === a.id)
      .map((r) => [r.payload.event, r.payload.data.amount ?? (r.payload.data.balance as { current: number }).current]);
    expect(ofA).toEqual([
      ['accounts.created', 0],
      ['accounts.created', 0],
      ['inflows.completed', 100],
      ['accounts.updated', 100],
      ['inflows.completed', 200],
      ['accounts.updated', 300],
    ]);
    // Account B's creation did not wait behind A's retry (3 s later): it arrived before it.
    const retryOfA = got.findIndex((r, i) => i > 0 && aboutAccount(r) === a.id);
    expect(got.findIndex((r) => aboutAccount(r) === b.id)).toBeLessThan(retryOfA);
    receiver.responder = () => ({ status: 200 });
  });
});
