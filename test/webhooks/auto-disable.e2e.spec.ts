import { join } from 'node:path';
import Database from 'better-sqlite3';
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

/** Due times of a webhook's pending deliveries in the delivery store (a paused one is never due by time). */
function pendingDue(dataDir: string, webhookId: string): number[] {
  const db = new Database(join(dataDir, 'deliveries.db'), { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare("SELECT due_at FROM deliveries WHERE webhook_id = ? AND status = 'pending' AND head = 1")
        .all(webhookId) as { due_at: number }[]
    ).map((r) => r.due_at);
  } finally {
    db.close();
  }
}

/**
 * Decisions §15: a webhook all of whose attempts failed for WEBHOOK_DISABLE_AFTER_MS (short here)
 * is disabled by the worker, as an event of its history; its pending deliveries pause and resume,
 * in order, once it is set active again; the entity's other webhooks subscribed to
 * `webhooks.disabled` are told. Through HTTP to a real HTTPS receiver verifying every delivery.
 */
describe('automatic disabling of a failing webhook (decisions §15)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let failing = true;

  beforeAll(async () => {
    requireTestCa();
    // Attempts keep failing for longer than the disabling bound, so the webhook is disabled while a retry is pending.
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_DISABLE_AFTER_MS: '600' });
    receiver = await Receiver.start();
    receiver.responder = (path) => ({ status: path === '/failing' && failing ? 500 : 200 });
    t = await startWebhookApp({ WEBHOOK_RETRY_SCHEDULE_MS: Array(40).fill(200).join(',') });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  it('disables it, tells the other webhooks, pauses its deliveries and resumes them in order when set active', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Failing');
    const hook = await webhookTo(t, receiver, '/failing', { entity_id: entity, enabled_events: { all: true } });
    await webhookTo(t, receiver, '/watcher', { entity_id: entity, enabled_events: { webhooks: ['disabled'] } });
    await webhookTo(t, receiver, '/bystander', { entity_id: entity, enabled_events: { accounts: ['created'] } });
    await t.settle();
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await t.http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 700, currency: 'USD' })
      .expect(201);

    const get = async () =>
      (
        await t.http
          .get(`/entity-webhooks/${hook.id}`)
          .query({ entity_id: entity })
          .set(bearer(KEYS.sandbox))
          .expect(200)
      ).body;
    const disabled = await eventually(get, (w) => w.status === 'inactive');
    expect([disabled.status, disabled.disabled_reason]).toEqual(['inactive', 'failing']);
    // The list says so too.
    const listed = await eventually(
      async () =>
        (await t.http.get('/entity-webhooks').query({ entity_id: entity }).set(bearer(KEYS.sandbox)).expect(200)).body
          .data,
      (hooks: Array<{ id: string; disabled_reason: string | null }>) =>
        hooks.some((w) => w.id === hook.id && w.disabled_reason === 'failing'),
    );
    expect(listed.find((w: { id: string }) => w.id === hook.id)).toMatchObject({
      status: 'inactive',
      disabled_reason: 'failing',
    });

    // The disabling is in the webhook's history.
    const history = (await t.http.get(`/entity-webhooks/${hook.id}/history`).set(bearer(KEYS.sandbox)).expect(200)).body
      .data as Array<{ type: string; data: Record<string, unknown> }>;
    expect(history.map((e) => e.type)).toContain('WebhookDisabled');
    expect(history.find((e) => e.type === 'WebhookDisabled')!.data).toMatchObject({
      webhook_id: hook.id,
      reason: 'failing',
    });

    // The other webhook subscribed to it is told; the disabled one and the unsubscribed one are not.
    const told = await eventually(
      () => receiver.on('/watcher'),
      (r) => r.length >= 1,
    );
    expect(told[0].payload).toMatchObject({
      event: 'webhooks.disabled',
      entity_id: entity,
      data: { id: hook.id, object: 'webhook', status: 'inactive', disabled_reason: 'failing' },
    });
    expect(receiver.on('/bystander').map((r) => r.payload.event)).toEqual(['accounts.created']);
    expect(
      storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id && d.event === 'webhooks.disabled'),
    ).toEqual([]);

    // Paused, not dropped: the account's creation waits at its queue's head, never due by time; nothing is attempted.
    const paused = await eventually(
      () => pendingDue(t.dataDir, hook.id),
      (due) => due.length >= 1 && due.every((d) => d === Number.MAX_SAFE_INTEGER),
    );
    expect(paused.every((d) => d === Number.MAX_SAFE_INTEGER)).toBe(true);
    const pending = storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id && d.status === 'pending');
    expect(pending.map((d) => d.event).sort()).toEqual(
      expect.arrayContaining(['accounts.created', 'accounts.updated', 'inflows.completed']),
    );
    const attemptsWhenPaused = (await logsOf(t, entity, { webhook_id: hook.id })).length;

    // Set active again: the reason clears, and the paused deliveries go out in their order.
    failing = false;
    const seenBefore = receiver.on('/failing').length;
    const reactivated = await t.http
      .patch(`/entity-webhooks/${hook.id}`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, status: 'active' })
      .expect(200);
    expect([reactivated.body.status, reactivated.body.disabled_reason]).toEqual(['active', null]);
    const resumed = await eventually(
      () => receiver.on('/failing').slice(seenBefore),
      (r) => r.length >= pending.length,
    );
    const events = resumed.map((r) => r.payload.event);
    expect(events.indexOf('accounts.created')).toBeLessThan(events.indexOf('accounts.updated'));
    expect(events.indexOf('inflows.completed')).toBeLessThan(events.indexOf('accounts.updated'));
    expect((await logsOf(t, entity, { webhook_id: hook.id })).length).toBeGreaterThan(attemptsWhenPaused);
    await eventually(
      () => storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id && d.status === 'pending'),
      (left) => left.length === 0,
    );
    expect((await get()).status).toBe('active');
  });
});
