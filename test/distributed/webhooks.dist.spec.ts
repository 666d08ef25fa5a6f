import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Receiver } from '../webhooks/receiver';
import { TEST_CA } from '../webhooks/webhooks-helpers';
import {
  eventually,
  killStartedApps,
  randomKey,
  sharedEnvironment,
  startApp,
  startWorker,
  type AppProcess,
} from './processes';
import { standardWebhooksSecret } from '@app/application/webhooks';

/**
 * The webhooks role as its own worker, fed by the real Kafka broker: the API and three workers
 * (projector, publisher, webhooks) are four OS processes. Events written through the API reach
 * Kafka through the publisher worker and the receiver through the webhooks worker, signed, with a
 * retry after a 500 and both attempts in the logs.
 */
describe('distributed deployment: the webhooks worker on Kafka', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-dist-webhooks-'));
  const key = randomKey();
  const env = {
    ...sharedEnvironment(dataDir, `dist_wh_${Date.now().toString(36)}`, key),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,500,500',
  };
  const auth = { Authorization: `Bearer ${key}` };
  let apps: AppProcess[] = [];
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await Receiver.start();
    apps = await Promise.all([
      startApp('api', env),
      startWorker('projector', env),
      startWorker('publisher', env),
      // The worker trusts the test receiver's CA the production way: read at process start.
      startWorker('webhooks', { ...env, NODE_EXTRA_CA_CERTS: TEST_CA }),
    ]);
  });
  afterAll(async () => {
    for (const app of apps) await app.stop();
    await killStartedApps();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers subscribed events from Kafka, retries a 500, and logs both attempts', async () => {
    const [api, , , worker] = apps;
    expect((await worker.health()).adapters).toEqual({ event_store: 'sqlite', read_store: 'mongodb', bus: 'kafka' });
    const http = request(api.url);
    const entity = (
      await http
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com', country: 'NG' })
        .expect(201)
    ).body.id as string;
    const secret = 'distributed-secret-0123456789';
    receiver.expect('/dist', standardWebhooksSecret(secret));
    receiver.responder = (_path, n) => (n === 1 ? { status: 500 } : { status: 200 });
    const hook = (
      await http
        .post('/entity-webhooks')
        .set(auth)
        .send({
          entity_id: entity,
          url: receiver.url('/dist'),
          secret,
          enabled_events: { accounts: ['created'], inflows: ['completed'] },
        })
        .expect(201)
    ).body;

    const account = (await http.post('/accounts').set(auth).send({ entity_id: entity, currency: 'USD' }).expect(201))
      .body;
    await http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(auth)
      .send({ amount: 4200, currency: 'USD' })
      .expect(201);

    const received = await eventually(
      async () => receiver.on('/dist'),
      (r) => new Set(r.map((x) => x.payload.event)).size === 2 && r.length >= 3,
      'both events delivered',
    );
    expect(receiver.rejected).toEqual([]);
    const created = received.filter((r) => r.payload.event === 'accounts.created');
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created[created.length - 1].payload.data).toMatchObject({ id: account.id, entity_id: entity });
    expect(received.find((r) => r.payload.event === 'inflows.completed')!.payload.data).toMatchObject({
      account_id: account.id,
      amount: 4200,
    });

    const logs = await eventually(
      async () =>
        (await http.get('/webhook-logs').query({ entity_id: entity, webhook_id: hook.id }).set(auth).expect(200)).body
          .data as Array<Record<string, any>>,
      (l) => l.some((x) => x.status === 'failed') && l.filter((x) => x.status === 'succeeded').length === 2,
      'the failed and the acknowledged attempts in GET /webhook-logs',
    );
    const failed = logs.find((l) => l.status === 'failed')!;
    expect(failed).toMatchObject({
      attempt: 1,
      response: { status_code: 500 },
      request: { headers: { 'webhook-signature': '***' } },
    });
    expect(logs.find((l) => l.event_id === failed.event_id && l.status === 'succeeded')).toMatchObject({ attempt: 2 });
  });

  it('routes each event at its position in the log and keeps one resource in order, without waiting for the projector', async () => {
    const http = request(apps[0].url);
    const entity = (
      await http
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Bo', last_name: 'Lind', email: 'bo@example.com', country: 'SE' })
        .expect(201)
    ).body.id as string;
    const webhook = async (path: string, enabled_events: Record<string, string[]>) => {
      const secret = `distributed-${path.slice(1)}-0123456789`;
      receiver.expect(path, standardWebhooksSecret(secret));
      return (
        await http
          .post('/entity-webhooks')
          .set(auth)
          .send({ entity_id: entity, url: receiver.url(path), secret, enabled_events })
          .expect(201)
      ).body as { id: string };
    };
    receiver.responder = (path, n) => ({ status: path === '/dist-ordered' && n === 1 ? 500 : 200 });
    // Deleted just before the events, created just before them: no list is waited for.
    const gone = await webhook('/dist-gone', { accounts: ['created', 'updated'], inflows: ['completed'] });
    await http.delete(`/entity-webhooks/${gone.id}`).query({ entity_id: entity }).set(auth).expect(200);
    const ordered = await webhook('/dist-ordered', { accounts: ['created', 'updated'], inflows: ['completed'] });
    const account = (await http.post('/accounts').set(auth).send({ entity_id: entity, currency: 'USD' }).expect(201))
      .body;
    for (const amount of [100, 200])
      await http.post(`/sandbox/accounts/${account.id}/fund`).set(auth).send({ amount, currency: 'USD' }).expect(201);

    const received = await eventually(
      async () => receiver.on('/dist-ordered'),
      (r) => r.length >= 6,
      'every event, the first one twice',
    );
    expect(receiver.rejected).toEqual([]);
    // The first delivery failed once; the later ones waited for its retry, then followed in event order.
    expect(
      received.map((r) => [
        r.payload.event,
        r.payload.data.amount ?? (r.payload.data.balance as { current: number }).current,
      ]),
    ).toEqual([
      ['accounts.created', 0],
      ['accounts.created', 0],
      ['inflows.completed', 100],
      ['accounts.updated', 100],
      ['inflows.completed', 200],
      ['accounts.updated', 300],
    ]);
    // Five deliveries to the webhook in force at each event's position, one attempted twice.
    const logsOf = async (webhookId: string) =>
      (
        await http
          .get('/webhook-logs')
          .query({ entity_id: entity, webhook_id: webhookId, limit: '100' })
          .set(auth)
          .expect(200)
      ).body.data as Array<Record<string, any>>;
    const logs = await eventually(
      () => logsOf(ordered.id),
      (l) => l.length >= 6,
      'every attempt in GET /webhook-logs',
    );
    expect(new Set(logs.map((l) => l.event_id)).size).toBe(5);
    expect(logs).toHaveLength(6);
    expect(receiver.on('/dist-gone')).toEqual([]);
  });
});
