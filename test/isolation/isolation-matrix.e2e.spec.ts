import type { INestApplication } from '@nestjs/common';
import type { Response } from 'supertest';
import { AuditCheckpointWriter } from '@app/platform/audit-checkpoints/audit-checkpoint-writer';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { approvedEntity, tokenFor } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import { BANK_USD, fund, paymentDetail, post, transferBody } from '../transfers/helpers';
import { authorize, virtualCard } from '../cards/helpers';
import {
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  formTokenOf,
  publicKeyOf,
  walletAction,
} from '../collections/helpers';
import { ROUTES, type RouteCase, type World } from './routes';
import { waitFor } from '../support/wait-for';

type Column = 'same mode' | 'other mode' | 'other organization' | "other entity's token" | 'no key';

/** `METHOD /path` of every route the Nest router serves. */
function routerRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance();
  const stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> = (
    express.router ?? express._router
  ).stack;
  return stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
      : [],
  );
}

/**
 * Decisions §1: every route × {same mode, other mode, other organization, other entity's token,
 * no key}. The first world is entity E in the sandbox world of the live key's organization; the
 * other worlds try every route on its ids, then its resources and events must be unchanged.
 */
describe('isolation matrix: sandbox and live, organizations, entities', () => {
  let t: TestApp;
  let w: World;
  const keys = {} as Record<Column, string | null>;

  beforeAll(async () => {
    // One attempt per delivery, no retry: the world's webhook deliveries end before the matrix looks (its snapshots hold their logs).
    t = await startTestApp({ WEBHOOK_RETRY_SCHEDULE_MS: '0' });
    const sandboxKey = (await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ mode: 'sandbox' }).expect(201))
      .body.key as string;
    w = await firstWorld(t, sandboxKey);
    keys['same mode'] = sandboxKey;
    keys['other mode'] = KEYS.live;
    keys['other organization'] = KEYS.other;
    keys["other entity's token"] = await tokenFor(t, await approvedEntity(t, sandboxKey), sandboxKey);
    keys['no key'] = null;
  }, 60_000);
  afterAll(() => t.close());

  const send = (route: string, c: RouteCase, key: string | null, world: World = w): Promise<Response> => {
    const [method] = route.split(' ');
    const r = c.request(world);
    let req = t.http[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](r.path);
    if (key) req = req.set(bearer(key));
    if (r.multipart) {
      for (const [name, value] of Object.entries(r.multipart.fields)) req = req.field(name, value);
      return req.attach('file', r.multipart.file, { filename: 'id.png', contentType: 'image/png' });
    }
    return r.body ? req.send(r.body) : req;
  };

  it('keeps its route table complete against the Nest router', () => {
    const served = routerRoutes(t.app).sort();
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((r) => !(r in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((r) => !served.includes(r))).toEqual([]);
  });

  it('answers every other world as decided and changes nothing of the first world', async () => {
    const before = await snapshot(t, w, keys['same mode']!);
    const wrong: string[] = [];
    for (const column of ['other mode', 'other organization', "other entity's token", 'no key'] as const) {
      for (const [route, c] of Object.entries(ROUTES)) {
        if (c.kind === 'capability' && !route.startsWith('GET')) continue;
        // A live key may rotate and revoke its organization's sandbox keys: it gets a key of its own to try that on.
        const world = column === 'other mode' && c.liveManagesSandboxKeys ? { ...w, apiKey: await throwawayKey(t) } : w;
        const res = await send(route, c, keys[column], world);
        const problem = judge(column, c, res, w);
        if (problem)
          wrong.push(`${column} × ${route}: ${problem} (${res.status} ${JSON.stringify(res.body).slice(0, 160)})`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(t, w, keys['same mode']!)).toEqual(before);
  }, 120_000);

  it('serves the first world to its own key on every route', async () => {
    const wrong: string[] = [];
    // Reads first, on the untouched world; deletions and deactivation last, so the writes before them still find what they name.
    const last = (route: string) =>
      route.startsWith('GET') ? 0 : route.startsWith('DELETE') || route.includes('deactivate') ? 2 : 1;
    for (const [route, c] of Object.entries(ROUTES).sort(([a], [b]) => last(a) - last(b))) {
      // Public routes answer the same to everyone (judged below); the dashboard's own test serves a build.
      if (c.kind === 'operator' || c.kind === 'public') continue;
      const res = await send(route, c, keys['same mode']);
      const refused =
        res.status >= 500 || [401, 403, 404].includes(res.status) || (route.startsWith('GET') && res.status !== 200);
      if (refused) wrong.push(`${route}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});

/** The operator probes and the scrape: without a key, for everyone (docs/decisions/infrastructure.md, "Operations"). */
const PUBLIC_PATHS = ['/health', '/health/live', '/health/ready', '/metrics'];

/** Null when the answer is the decided one, else what is wrong with it. */
function judge(column: Exclude<Column, 'same mode'>, c: RouteCase, res: Response, w: World): string | null {
  const expect = (ok: boolean, what: string) => (ok ? null : `expected ${what}`);
  if (res.status >= 500) return 'never a 5xx';
  if (c.kind === 'operator') return expect(res.status === 404, '404 (no PAYMENTS_ADMIN_TOKEN)');
  if (c.kind === 'capability') return expect(res.status !== 401, 'the page, whoever asks');
  if (c.kind === 'public')
    return expect(
      res.status === 200 || (res.status === 404 && res.body.status === 'error'),
      'the same public answer, with or without a key',
    );
  if (column === 'no key')
    return PUBLIC_PATHS.includes(c.request(w).path)
      ? expect(res.status === 200, '200')
      : expect(res.status === 401, '401');
  if (leaks(res, w)) return 'no first-world id in the answer';
  if (column === "other entity's token") {
    if (c.kind === 'shared') return expect(res.status < 300, '2xx');
    if (c.kind === 'list' && !c.apiKeyOnly)
      return expect(res.status === 200 || res.status === 403, '200 without E, or 403');
    return expect(res.status === 403, '403');
  }
  switch (c.kind) {
    case 'shared':
    case 'create':
      return expect(res.status < 300, '2xx in its own world');
    case 'list':
      return expect(res.status === 200, '200 without the first world');
    case 'relay':
      return column === 'other mode'
        ? expect(res.status === 403 && res.body.code === 'sandbox_only', '403 sandbox_only')
        : expect(res.status === 200 || res.status === 409, 'its own relay');
    case 'sandbox':
      return column === 'other mode'
        ? expect(res.status === 403 && res.body.code === 'sandbox_only', '403 sandbox_only')
        : expect(res.status === 404, '404');
    case 'owned':
      if (column === 'other mode' && c.liveManagesSandboxKeys)
        return expect(res.status < 300, '2xx (a live key manages sandbox keys)');
      return expect(res.status === 404, '404');
  }
}

/** A refusal may echo the id the caller sent; an answer that serves something must not carry the first world. */
function leaks(res: Response, w: World): boolean {
  if (res.status >= 300) return false;
  // A stream's events are in its text (supertest parses no text/event-stream body).
  const text =
    JSON.stringify(res.body ?? {}) +
    (String(res.headers['content-type']).startsWith('text/event-stream') ? res.text : '');
  const ids = [
    w.entity,
    w.business,
    w.account,
    w.account2,
    w.counterparty,
    w.paymentDetail,
    w.transfer,
    w.webhook,
    w.card,
    w.cardTransaction,
  ];
  return [...ids, w.waitingIntent, w.action, w.paidIntent, w.openIntent].some((id) => text.includes(id));
}

async function throwawayKey(t: TestApp): Promise<string> {
  return (await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ mode: 'sandbox' }).expect(201)).body
    .id as string;
}

/** Entity E with an account (funded), account details, a counterparty, a payment detail, a pending transfer and a webhook; a business B; a key. */
async function firstWorld(t: TestApp, key: string): Promise<World> {
  const entity = await approvedEntity(t, key);
  const personId = (await t.http.get(`/entities/${entity}`).set(bearer(key)).expect(200)).body.person_id as string;
  const business = (
    await t.http
      .post('/business-entities')
      .set(bearer(key))
      .send({
        legal_name: 'First World Ltd',
        email: 'ops@first.test',
        business_type: 'llc',
        country_of_incorporation: 'GB',
        registered_address: {
          line_1: '1 High Street',
          city: 'London',
          state: 'Greater London',
          postal_code: 'N1 9GU',
          country_code: 'GB',
        },
      })
      .expect(201)
  ).body.id as string;
  const account = (await openAccount(t, key, { entity_id: entity, currency: 'USD' })).id;
  await t.http.post('/account-details').set(bearer(key)).send({ account_id: account, asset_type: 'fiat' }).expect(201);
  await fund(t, account, 100_000, 'USD', key);
  const counterparty = (await createCounterparty(t, entity, {}, key)).id;
  const detail = await paymentDetail(t, counterparty, BANK_USD, key);
  // Before the transfer and subscribed to its creation: the webhook was due that event, so its own key may resend it (decisions §15).
  const webhook = (
    await t.http
      .post('/entity-webhooks')
      .set(bearer(key))
      .send({
        entity_id: entity,
        url: 'https://hooks.example.com/first',
        enabled_events: { outflows: ['created', 'completed'] },
      })
      .expect(201)
  ).body.id as string;
  const transfer = (await post(t, transferBody(account, detail), '/transfer', key).expect(201)).body.id as string;
  await waitFor(
    async () =>
      (await t.http.get('/webhook-logs').query({ entity_id: entity, webhook_id: webhook }).set(bearer(key)).expect(200))
        .body.data.length,
    (n) => n >= 1,
    'the attempt of the outflows.created its webhook was due',
  );
  const apiKey = (await t.http.post('/api-keys').set(bearer(key)).send({ name: 'first' }).expect(201)).body
    .id as string;
  const world = {
    entity,
    personId,
    business,
    account,
    counterparty,
    paymentDetail: detail,
    transfer,
    webhook,
    apiKey,
    ...(await cardsAndCollections(t, key, entity, account)),
  };
  // An event of the world, in a signed checkpoint (the writer signs every few seconds; now, here).
  const event = (await t.http.get(`/transfers/${transfer}/history`).set(bearer(key)).expect(200)).body.data[0]
    .id as string;
  await t.app.get(AuditCheckpointWriter).checkpointNow();
  return { ...world, event };
}

/** A card with a held authorization; intents waiting for 3-D Secure, paid, and open. */
async function cardsAndCollections(t: TestApp, key: string, entity: string, account: string) {
  const account2 = (await openAccount(t, key, { entity_id: entity, currency: 'EUR' })).id;
  const issued = (await virtualCard(t, account, {}, key)).id;
  const cardTransaction = (await authorize(t, issued, { amount: 500, capture: false }, key).expect(201)).body.data
    .id as string;
  const waitingIntent = (await createIntent(t, account, {}, key)).id;
  const action = (
    await confirm(t, waitingIntent, cardAction(encrypt(await publicKeyOf(t, key), card())), key).expect(201)
  ).body.id as string;
  const paidIntent = (await createIntent(t, account, {}, key)).id;
  await confirm(t, paidIntent, walletAction(), key).expect(201);
  const openIntent = (await createIntent(t, account, {}, key)).id;
  return {
    account2,
    card: issued,
    cardTransaction,
    waitingIntent,
    action,
    actionFormToken: formTokenOf(t, action),
    paidIntent,
    openIntent,
  };
}

/** Everything the first world's key can read of it, and every event of its streams. */
async function snapshot(t: TestApp, w: World, key: string) {
  await t.settle();
  const paths = [
    `/entities/${w.entity}`,
    `/entities/${w.business}`,
    '/entities',
    `/accounts/${w.account}`,
    `/accounts/${w.account}/transactions`,
    `/accounts?entity_id=${w.entity}`,
    `/counterparties/${w.counterparty}`,
    `/counterparties/${w.counterparty}/payment-details`,
    `/counterparties?entity_id=${w.entity}`,
    `/transfers/${w.transfer}?entity_id=${w.entity}`,
    `/transfers?entity_id=${w.entity}`,
    `/entity-webhooks/${w.webhook}?entity_id=${w.entity}`,
    `/entity-webhooks?entity_id=${w.entity}`,
    `/webhook-logs?entity_id=${w.entity}`,
    '/api-keys/current',
    `/card-details/${w.card}`,
    `/card-transactions/${w.card}`,
    `/cards?entity_id=${w.entity}`,
    `/payment-intents/${w.waitingIntent}`,
    `/payment-intents/${w.paidIntent}`,
    `/payment-intents/${w.openIntent}`,
    `/payment-intents/${w.paidIntent}/refunds`,
    `/intent-actions/${w.action}`,
    '/payment-intents',
    '/intent-actions',
  ];
  const reads: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await t.http.get(path).set(bearer(key));
    if (res.status !== 200) throw new Error(`snapshot read ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    reads[path] = res.body;
  }
  const owners = new Set([w.entity, w.business]);
  const named = new Set([`counterparty-${w.counterparty}`, `api-key-${w.apiKey}`, `payment-detail-${w.paymentDetail}`]);
  const all = await t.app.get<EventStore>(EVENT_STORE).readAll({ limit: 1_000_000 });
  const streams = new Set(
    all
      .filter(
        (e) =>
          owners.has(String(e.metadata.entity_id)) || owners.has(String(e.data.entity_id)) || named.has(e.streamId),
      )
      .map((e) => e.streamId),
  );
  const events = all
    .filter((e) => streams.has(e.streamId))
    .map((e) => ({ stream: e.streamId, revision: e.revision, type: e.type, data: e.data, metadata: e.metadata }));
  return { reads, events };
}
