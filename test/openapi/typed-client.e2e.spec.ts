import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createPaymentsClient, type PaymentsClient } from '../../clients/typescript';
import { quickstart } from '../../examples/quickstart';
import { webhookReceiver, type Delivery } from '../../examples/webhook-receiver';
import { openApiResponses } from '../support/openapi-check';
import { KEYS, startTestApp, type TestApp } from '../support/test-app';

const TLS = join(__dirname, '..', 'fixtures', 'tls');

/**
 * Issue 22, part 3: the typed client (clients/typescript) against the app listening on a port,
 * running the TypeScript quick start (examples/quickstart.ts), with the webhook receiver example
 * (examples/webhook-receiver.ts) verifying the deliveries it causes. Every response the client
 * receives is checked against the OpenAPI document as the suite's supertest responses are.
 */
describe('typed client, quick start and webhook receiver examples', () => {
  let t: TestApp;
  let api: PaymentsClient;
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  const mismatches: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    await t.app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    api = createPaymentsClient({ baseUrl, apiKey: KEYS.sandbox });
    api.use({
      async onResponse({ request, response }) {
        const text = await response.clone().text();
        const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
        const problem = openApiResponses(t.app).problemWith({
          method: request.method,
          url: request.url,
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: json,
        });
        if (problem) mismatches.push(problem);
      },
    });
    receiver = createServer({
      key: readFileSync(join(TLS, 'server.key')),
      cert: readFileSync(join(TLS, 'server.crt')),
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await t.close();
  });
  afterEach(() => expect(mismatches).toEqual([]));

  it('runs the quick start: entity, account, funding and a payout, typed end to end', async () => {
    const lines: string[] = [];
    const { entity, account, transfer } = await quickstart(api, (line) => lines.push(line));
    expect(entity.status).toBe('active');
    expect(transfer).toMatchObject({
      status: 'pending',
      amount: 50_000,
      account_id: account.id,
      payment_type: 'bank-transfer',
    });
    expect(account.balance.current).toBe(150_000);
    expect(account.balance.available).toBe(150_000 - 50_000 - transfer.fee);
    expect(lines).toHaveLength(4);
  });

  it('answers errors in the envelope, typed', async () => {
    const { data, error, response } = await api.GET('/transfers/{id}', {
      params: { path: { id: 'trf_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, query: {} },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ status: 'error', code: 'validation_error', errors: [{ field: 'entity_id' }] });
  });

  it('receives the payout’s webhooks in the receiver example, verified with signing_secret', async () => {
    const entity = (
      await api.POST('/entities', {
        body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', country: 'US' },
      })
    ).data!;
    const { data: webhook } = await api.POST('/entity-webhooks', {
      body: { entity_id: entity.id, url: receiverUrl, enabled_events: { outflows: ['created'] } },
    });
    receiver.on(
      'request',
      webhookReceiver(webhook!.signing_secret, (d) => void deliveries.push(d)),
    );

    const account = (await api.POST('/accounts', { body: { entity_id: entity.id, currency: 'USD' } })).data!;
    await api.POST('/sandbox/accounts/{id}/fund', {
      params: { path: { id: account.id } },
      body: { amount: 10_000, currency: 'USD' },
    });
    const counterparty = (
      await api.POST('/counterparties', {
        body: { type: 'individual', entity_id: entity.id, profile: { first_name: 'Ada', last_name: 'Lovelace' } },
      })
    ).data!;
    const details = (
      await api.POST('/counterparties/{id}/payment-details', {
        params: { path: { id: counterparty.id } },
        body: {
          payment_method: 'bank-transfer',
          currency: 'USD',
          country: 'US',
          bank: { account_number: '123456789', scheme: 'aba', code: '021000021' },
        },
      })
    ).data!;
    const transfer = (
      await api.POST('/transfers', {
        body: {
          account_id: account.id,
          payment_detail_id: details.id,
          amount: 1_000,
          payment_type: 'bank-transfer',
          unique_reference: 'hook-1',
        },
      })
    ).data!;

    const deadline = Date.now() + 20_000;
    while (!deliveries.some((d) => d.data.id === transfer.id) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(deliveries.find((d) => d.data.id === transfer.id)).toMatchObject({
      event: 'outflows.created',
      entity_id: entity.id,
      data: { id: transfer.id, status: 'pending' },
    });
  }, 40_000);

  it('refuses a delivery that is not signed with the webhook’s secret', async () => {
    const forged = new Webhook(`whsec_${Buffer.from('not the secret of this webhook').toString('base64')}`);
    const body = JSON.stringify({
      id: 'evt_forged',
      event: 'outflows.completed',
      created: Date.now(),
      entity_id: 'ent_x',
      data: {},
    });
    const headers = { 'webhook-id': 'evt_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    const signature = forged.sign('evt_forged', new Date(), body);
    const answer = await fetch(receiverUrl, {
      method: 'POST',
      body,
      headers: { ...headers, 'webhook-signature': signature, 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(deliveries.some((d) => d.id === 'evt_forged')).toBe(false);
  });
});
