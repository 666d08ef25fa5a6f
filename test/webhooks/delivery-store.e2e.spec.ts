import { accountStream } from '@app/application/accounts/streams';
import { transferStream } from '@app/application/transfers/streams';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { BANK_USD, paymentDetail, transferBody } from '../transfers/helpers';
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

/** Delivery bookkeeping of the code before the delivery store, and the streams it used. */
const BOOKKEEPING = /^WebhookDelivery/;
const BOOKKEEPING_STREAM = /^webhook-(delivery|queue)-/;

/**
 * Issue 20, part 1: deliveries, claims, attempts and logs live in the webhook app's delivery store;
 * the log holds the domain's events only (with one all-events webhook, a payout wrote 31 events
 * before, 25 of them delivery bookkeeping).
 */
describe('webhook deliveries in the delivery store, none in the log', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  const SCHEDULE = [0, 300, 300];

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    t = await startWebhookApp({ WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE.join(',') });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  it('writes only its domain events for a payout with an all-events webhook, and delivers every one of them', async () => {
    const store = t.app.get<EventStore>(EVENT_STORE);
    const entity = await approvedEntity(t, KEYS.sandbox, 'Payout');
    const hook = await webhookTo(t, receiver, '/all', { entity_id: entity, enabled_events: { all: true } });
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await t.http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 50_000, currency: 'USD' })
      .expect(201);
    const counterparty = await createCounterparty(t, entity);
    const detail = await paymentDetail(t, counterparty.id, BANK_USD);
    // Everything before the payout delivered, so the count below is the payout's alone: the funding's
    // inflows.completed arrived (so its events were routed) and nothing is left pending.
    await eventually(
      () => Promise.resolve(receiver.on('/all').map((r) => r.payload.event)),
      (events) => events.includes('inflows.completed'),
    );
    await eventually(
      () => storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id && d.status !== 'succeeded'),
      (d) => d.length === 0,
    );
    const before = await store.headPosition();
    const deliveredBefore = receiver.on('/all').length;

    const transfer = (
      await t.http.post('/transfer').set(bearer(KEYS.sandbox)).send(transferBody(account.id, detail)).expect(201)
    ).body.id as string;
    for (const to of ['processing', 'successful'])
      await t.http.post(`/sandbox/transfers/${transfer}/advance`).set(bearer(KEYS.sandbox)).send({ to }).expect(200);
    const got = await eventually(
      () => receiver.on('/all').slice(deliveredBefore),
      (r) => r.length >= 5,
    );
    expect(got.map((r) => r.payload.event).sort()).toEqual([
      'accounts.updated',
      'accounts.updated',
      'outflows.completed',
      'outflows.created',
      'outflows.updated',
    ]);
    // Each resource's deliveries in the order of its events.
    expect(got.filter((r) => r.payload.event.startsWith('outflows.')).map((r) => r.payload.event)).toEqual([
      'outflows.created',
      'outflows.updated',
      'outflows.completed',
    ]);

    const written = (await store.readAll({ after: before, limit: 1000 })).filter((e) => e.position > before);
    const payoutStreams = [transferStream(transfer), accountStream(account.id)];
    expect(written.filter((e) => !payoutStreams.includes(e.streamId)).map((e) => `${e.streamId} ${e.type}`)).toEqual(
      [],
    );
    expect(written.map((e) => e.type).sort()).toEqual([
      'FundsHeld',
      'HoldSettled',
      'TransferCreated',
      'TransferProcessing',
      'TransferSucceeded',
    ]);
    // Not one delivery event anywhere in the log, for everything this app delivered.
    const log = await store.readAll({ limit: 100_000 });
    expect(log.filter((e) => BOOKKEEPING.test(e.type) || BOOKKEEPING_STREAM.test(e.streamId))).toEqual([]);
    expect(storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id).length).toBe(receiver.on('/all').length);
  });

  it('retries on the schedule, logs each attempt once, and counts them in the webhook stats', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Retried');
    receiver.responder = (path, n) => ({ status: path === '/retried' && n <= 2 ? 503 : 200 });
    const hook = await webhookTo(t, receiver, '/retried', {
      entity_id: entity,
      enabled_events: { accounts: ['created', 'updated'], inflows: ['completed'] },
    });
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    await t.http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 700, currency: 'EUR' })
      .expect(201);

    const got = await eventually(
      () => receiver.on('/retried'),
      (r) => r.length >= 5,
    );
    // The first delivery answered 503 twice; the events behind it waited, then went in order.
    expect(got.map((r) => r.payload.event)).toEqual([
      'accounts.created',
      'accounts.created',
      'accounts.created',
      'inflows.completed',
      'accounts.updated',
    ]);
    const logs = (
      await eventually(
        () => logsOf(t, entity, { webhook_id: hook.id }),
        (l) => l.length >= 5,
      )
    ).reverse();
    expect(logs.map((l) => [l.event, l.attempt, l.status, l.response?.status_code])).toEqual([
      ['accounts.created', 1, 'failed', 503],
      ['accounts.created', 2, 'failed', 503],
      ['accounts.created', 3, 'succeeded', 200],
      ['inflows.completed', 1, 'succeeded', 200],
      ['accounts.updated', 1, 'succeeded', 200],
    ]);
    // Entry n of the schedule is the wait after attempt n failed.
    for (const n of [1, 2]) expect(logs[n].sent_at - logs[n - 1].completed_at).toBeGreaterThanOrEqual(SCHEDULE[n]);
    expect(logs.map((l) => l.request.headers['webhook-id'])).toEqual(got.map((r) => r.payload.id));
    // Filters answer from the store as the read model did.
    expect((await logsOf(t, entity, { webhook_id: hook.id, status: 'failed' })).map((l) => l.attempt)).toEqual([2, 1]);
    expect((await logsOf(t, entity, { event: 'inflows.completed' })).map((l) => l.id)).toEqual([logs[3].id]);
    const page = await t.http
      .get('/webhook-logs')
      .query({ entity_id: entity, limit: '2' })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(page.body.data.map((l: { id: string }) => l.id)).toEqual([logs[4].id, logs[3].id]);
    expect(page.body.meta.pagination).toEqual({ has_more: true, next_cursor: logs[3].id });

    const stats = {
      deliveries_total: 5,
      deliveries_succeeded: 3,
      deliveries_failed: 2,
      last_delivery_at: logs[4].completed_at,
      last_response_status: 200,
    };
    expect(
      (
        await t.http
          .get(`/entity-webhooks/${hook.id}`)
          .query({ entity_id: entity })
          .set(bearer(KEYS.sandbox))
          .expect(200)
      ).body.stats,
    ).toEqual(stats);
    await t.settle();
    const listed = (
      await t.http.get('/entity-webhooks').query({ entity_id: entity }).set(bearer(KEYS.sandbox)).expect(200)
    ).body.data;
    expect(listed.map((w: { id: string; stats: unknown }) => [w.id, w.stats])).toEqual([[hook.id, stats]]);
    // Nothing more: a 2xx ends a delivery for good. None is left pending in the store, so nothing
    // can be sent again (read there rather than watched for 700 ms: issue 32).
    const ended = await eventually(
      () => storedDeliveries(t.dataDir).filter((d) => d.webhook_id === hook.id),
      (ds) => ds.length === 3 && ds.every((d) => d.status !== 'pending'),
    );
    expect(ended.map((d) => [d.event, d.status, d.attempts]).sort()).toEqual([
      ['accounts.created', 'succeeded', 3],
      ['accounts.updated', 'succeeded', 1],
      ['inflows.completed', 'succeeded', 1],
    ]);
    expect(receiver.on('/retried')).toHaveLength(5);
    receiver.responder = () => ({ status: 200 });
  });
});
