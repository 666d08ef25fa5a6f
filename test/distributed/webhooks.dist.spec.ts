import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Receiver } from '../webhooks/receiver';
import { TEST_CA } from '../webhooks/webhooks-helpers';
import { eventually, killStartedApps, randomKey, sharedEnvironment, startApp, type AppProcess } from './processes';
import { standardWebhooksSecret } from '@app/application/webhooks';

/**
 * The webhook worker as its own deployment, fed by the real Kafka broker: the API (with its
 * embedded worker off), projector, publisher and `start:webhooks` are four OS processes. Events
 * written through the API reach Kafka through the publisher and the receiver through the worker,
 * signed, with a retry after a 500 and both attempts in the logs.
 */
describe('distributed deployment: the webhook worker as its own process on Kafka', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-dist-webhooks-'));
  const key = randomKey();
  const env = {
    ...sharedEnvironment(dataDir, `dist_wh_${Date.now().toString(36)}`, key),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,500,500',
    WEBHOOKS_EMBEDDED: 'false',
  };
  const auth = { Authorization: `Bearer ${key}` };
  let apps: AppProcess[] = [];
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await Receiver.start();
    apps = await Promise.all([
      startApp('api', env),
      startApp('projector', env),
      startApp('publisher', env),
      // The worker trusts the test receiver's CA the production way: read at process start.
      startApp('webhooks', { ...env, NODE_EXTRA_CA_CERTS: TEST_CA }),
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
    const entity = (await http.post('/entities').set(auth).send({ first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com', country: 'NG' }).expect(201)).body.id as string;
    const secret = 'distributed-secret-0123456789';
    receiver.expect('/dist', standardWebhooksSecret(secret));
    receiver.responder = (_path, n) => (n === 1 ? { status: 500 } : { status: 200 });
    const hook = (await http.post('/entity-webhooks').set(auth).send({ entity_id: entity, url: receiver.url('/dist'), secret, enabled_events: { accounts: ['created'], inflows: ['completed'] } }).expect(201)).body;
    // The worker finds subscribers in the list the projector process builds.
    await eventually(async () => (await http.get('/entity-webhooks').query({ entity_id: entity }).set(auth)).body.data?.length ?? 0, (n) => n === 1, 'the webhook in the list');

    const account = (await http.post('/accounts').set(auth).send({ entity_id: entity, currency: 'USD' }).expect(201)).body;
    await http.post(`/sandbox/accounts/${account.id}/fund`).set(auth).send({ amount: 4200, currency: 'USD' }).expect(201);

    const received = await eventually(async () => receiver.on('/dist'), (r) => new Set(r.map((x) => x.payload.event)).size === 2 && r.length >= 3, 'both events delivered');
    expect(receiver.rejected).toEqual([]);
    const created = received.filter((r) => r.payload.event === 'accounts.created');
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created[created.length - 1].payload.data).toMatchObject({ id: account.id, entity_id: entity });
    expect(received.find((r) => r.payload.event === 'inflows.completed')!.payload.data).toMatchObject({ account_id: account.id, amount: 4200 });

    const logs = await eventually(
      async () => (await http.get('/webhook-logs').query({ entity_id: entity, webhook_id: hook.id }).set(auth).expect(200)).body.data as Array<Record<string, any>>,
      (l) => l.some((x) => x.status === 'failed') && l.filter((x) => x.status === 'succeeded').length === 2,
      'the failed and the acknowledged attempts in GET /webhook-logs',
    );
    const failed = logs.find((l) => l.status === 'failed')!;
    expect(failed).toMatchObject({ attempt: 1, response: { status_code: 500 }, request: { headers: { 'webhook-signature': '***' } } });
    expect(logs.find((l) => l.event_id === failed.event_id && l.status === 'succeeded')).toMatchObject({ attempt: 2 });
  });
});
