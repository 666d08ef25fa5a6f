import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { captureLogLines } from '@app/platform/logging/logger';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import {
  eventually,
  fastWorkerEnv,
  logsOf,
  requireTestCa,
  startWebhookApp,
  webhookTo,
} from '../webhooks/webhooks-helpers';
import { account, CARDHOLDER, disposableBody, virtualBody } from './helpers';

const ADMIN_TOKEN = 'admin-token-for-the-card-scan-0123456789';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Every place a PAN or CVV could leak to: DATA_DIR (event store, read models, bus queue, their
 * WAL files), the server log, the bus, webhook deliveries and logs, and every response but the
 * two that may carry credentials (card creation and GET /card-details).
 */
describe('PAN and CVV appear nowhere but the two permitted responses', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  const logged: string[] = [];
  let capture: { stop(): void } | undefined;
  const responses: Array<{ what: string; text: string }> = [];

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    // Every line written, at every level, requests' lines included: captured before the app is built.
    capture = captureLogLines((line) => void logged.push(line), 'trace');
    t = await startWebhookApp({ PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await t?.close();
    capture?.stop();
    await receiver?.close();
    restoreEnv?.();
  });

  const record = (what: string) => (res: Response) => {
    responses.push({ what, text: JSON.stringify({ headers: res.headers, body: res.body, text: res.text }) });
    return res;
  };

  it('scans', async () => {
    const entity = await approvedEntity(t);
    await webhookTo(t, receiver, '/cards', {
      entity_id: entity,
      enabled_events: { cards: ['created', 'updated', 'deleted'], card_transactions: ['created', 'updated'] },
    });
    await t.settle();
    const usd = await account(t, entity, 'USD', 100_000);
    const eur = await account(t, entity, 'EUR', 100_000);
    const credentials: Array<{ number: string; cvv: string }> = [];
    const http = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) =>
      t.http[method](path)
        .set(bearer(KEYS.sandbox))
        .send(body ?? {})
        .then(record(`${method} ${path}`));

    const virtual = (
      await t.http
        .post('/virtual-cards')
        .set(bearer(KEYS.sandbox))
        .send(virtualBody(usd, { individual_controls: { daily_amount_limit: 50_000 } }))
        .expect(201)
    ).body.data;
    const disposable = (
      await t.http.post('/disposable-cards').set(bearer(KEYS.sandbox)).send(disposableBody(usd)).expect(201)
    ).body.data;
    credentials.push(virtual, disposable);
    for (const card of [virtual, disposable]) {
      const shown = (await t.http.get(`/card-details/${card.id}`).set(bearer(KEYS.sandbox)).expect(200)).body.data;
      expect({ number: shown.number, cvv: shown.cvv }).toEqual({ number: card.number, cvv: card.cvv });
    }

    const merchant = { name: 'Shop', mcc: '5942', city: 'Lagos', state: 'LA', postal_code: '100001', country: 'NG' };
    const pending = (
      await http('post', `/sandbox/cards/${virtual.id}/authorizations`, {
        amount: 1_000,
        currency: 'USD',
        merchant,
        capture: false,
      })
    ).body.data;
    const other = (
      await http('post', `/sandbox/cards/${virtual.id}/authorizations`, {
        amount: 700,
        currency: 'USD',
        merchant,
        capture: false,
      })
    ).body.data;
    await http('post', `/sandbox/card-transactions/${pending.id}/capture`, { amount: 900 });
    await http('post', `/sandbox/card-transactions/${other.id}/reverse`);
    await http('post', `/sandbox/cards/${disposable.id}/authorizations`, { amount: 500, currency: 'USD', merchant });
    await http('patch', `/card-details/${virtual.id}/freeze`);
    await http('patch', `/card-details/${virtual.id}/unfreeze`);
    await http('patch', `/cards/${virtual.id}/account`, { account_id: eur });
    await http('post', `/sandbox/cards/${virtual.id}/authorizations`, { amount: 300, currency: 'USD', merchant });
    await http('post', `/sandbox/cards/${virtual.id}/fraud`);
    await http('delete', `/card-details/${disposable.id}`);
    await http('get', `/cards?entity_id=${entity}`);
    await http('get', `/card-transactions/${virtual.id}`);
    await http('get', `/accounts/${usd}/transactions`);
    await http('get', `/events?limit=100`);
    // The auditor's view of the log: card events are there (resource_type card), without credentials.
    const organization = (await t.app.get<EventStore>(EVENT_STORE).readStream(`card-${virtual.id}`))[0].metadata
      .organization_id;
    const audit = await t.http
      .get(`/admin/organizations/${organization}/events`)
      .query({ limit: '100' })
      .set(bearer(ADMIN_TOKEN))
      .then(record('admin events'));
    expect(audit.body.data.some((e: { resource_type: string }) => e.resource_type === 'card')).toBe(true);
    // Errors too: a refused creation echoes nothing of a card.
    await http('post', '/virtual-cards', { ...virtualBody(usd), cardholder: { ...CARDHOLDER, phone_number: 'bad' } });

    // Webhooks: cards.created ×2, cards.updated, cards.deleted, card_transactions.created|updated all delivered.
    const wanted = [
      'cards.created',
      'cards.updated',
      'cards.deleted',
      'card_transactions.created',
      'card_transactions.updated',
    ];
    const delivered = await eventually(
      () => receiver.on('/cards'),
      (r) => wanted.every((name) => r.some((d) => d.payload.event === name)),
    );
    const names = new Set(delivered.map((d) => d.payload.event));
    for (const name of wanted) expect(names).toContain(name);
    // Payloads: the card as the API shows it without credentials; the transaction as the API answered it.
    const created = delivered.find((d) => d.payload.event === 'cards.created' && d.payload.data.id === virtual.id)!;
    expect(created.payload.data).toMatchObject({ id: virtual.id, last_four: virtual.last_four, status: 'active' });
    expect(created.payload.data.number).toBeUndefined();
    expect(created.payload.data.cvv).toBeUndefined();
    const captured = delivered.find(
      (d) =>
        d.payload.event === 'card_transactions.updated' &&
        d.payload.data.id === pending.id &&
        d.payload.data.status === 'successful',
    )!;
    expect(captured.payload.data).toMatchObject({ id: pending.id, amount: 900, card_id: virtual.id });
    const webhookLogs = JSON.stringify(await logsOf(t, entity));
    await t.settle();

    const haystacks: Array<{ what: string; text: string }> = [
      ...responses,
      { what: 'server log', text: logged.join('\n') },
      {
        what: 'webhook deliveries',
        text: JSON.stringify(delivered.map((d) => ({ headers: d.headers, payload: d.payload }))),
      },
      { what: 'webhook logs', text: webhookLogs },
      ...filesUnder(t.dataDir).map((file) => ({ what: file, text: readFileSync(file).toString('latin1') })),
    ];
    expect(haystacks.some((h) => h.what.endsWith('bus.db') || h.what.endsWith('bus.db-wal'))).toBe(true);
    expect(logged.length).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const { what, text } of haystacks) {
      for (const { number, cvv } of credentials) {
        if (text.includes(number)) leaks.push(`${what}: PAN`);
        if (new RegExp(`cvv\\W{0,6}${cvv}\\b`).test(text)) leaks.push(`${what}: CVV`);
      }
      if (/"cvv"\s*:\s*"\d{3,4}"/.test(text)) leaks.push(`${what}: a clear CVV value`);
    }
    expect(leaks).toEqual([]);
    // What is stored is sealed: the last four digits are there, the number is not.
    const events = haystacks
      .filter((h) => /events\.db/.test(h.what))
      .map((h) => h.text)
      .join('');
    expect(events).toContain(virtual.last_four);
  });
});
