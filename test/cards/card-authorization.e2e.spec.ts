import {
  CARD_AUTHORIZATION_CALLER,
  type AuthorizationEndpointCaller,
  type EndpointReply,
} from '@app/application/cards';
import { AUTHORIZATION_OUTCOME_MARGIN_MS } from '@app/application/cards/card-authorization-recovery.process-manager';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { logsOf, requireTestCa, startWebhookApp } from '../webhooks/webhooks-helpers';
import { waitFor } from '../support/wait-for';
import { AuthorizationEndpoint } from './authorization-endpoint';
import { authorize, balance, details, holder, virtualCard } from './helpers';

/**
 * Decisions §16 through HTTP: the entity's one endpoint subscribed to `card_authorizations.request`
 * decides what the platform approved, over real HTTPS, signed as deliveries are.
 */
/** How long a request waits for the endpoint here (CARD_AUTHORIZATION_TIMEOUT_MS). */
const TIMEOUT_MS = 1_500;

describe('card authorizations decided by the entity’s endpoint (decisions §16)', () => {
  let t: TestApp;
  let endpoint: AuthorizationEndpoint;
  let n = 0;

  beforeAll(async () => {
    requireTestCa();
    endpoint = await AuthorizationEndpoint.start();
    // Long enough for a loaded machine to answer, short enough for the endpoint that never does.
    // One request per entity may wait on its endpoint: the tests here ask one at a time, but one.
    t = await startWebhookApp({
      CARD_AUTHORIZATION_TIMEOUT_MS: String(TIMEOUT_MS),
      CARD_AUTHORIZATION_CONCURRENCY: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await endpoint?.close();
  });
  let afterDying: (() => void) | null = null;
  afterEach(() => {
    afterDying?.();
    expect(endpoint.rejected).toEqual([]);
  });

  /** A funded entity with an endpoint at its own path, and a card on its account. */
  async function program(fund = 10_000, card: Record<string, unknown> = {}) {
    const h = await holder(t, 'USD', fund);
    const path = `/program-${++n}`;
    const webhook = await endpoint.subscribe(t, h.entity, path);
    expect(webhook.status).toBe(201);
    return { ...h, path, webhook: webhook.body.id as string, card: (await virtualCard(t, h.account, card)).id };
  }

  it('approved: asked with the pending transaction, signed; the answer recorded as the endpoint’s', async () => {
    const p = await program();
    endpoint.answer(p.path, { status: 200, body: { approved: true } });
    const res = await authorize(t, p.card, { amount: 2_500 }).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'successful',
      amount: 2_500,
      authorization: { source: 'endpoint', endpoint_status: 200, reason: null },
    });
    expect(typeof res.body.data.authorization.latency_ms).toBe('number');
    const [asked] = endpoint.on(p.path);
    expect(asked.payload).toMatchObject({
      event: 'card_authorizations.request',
      entity_id: p.entity,
      data: { id: res.body.data.id, card_id: p.card, amount: 2_500, currency: 'USD', status: 'pending', fx: null },
    });
    expect(await balance(t, p.account)).toEqual({ available: 7_500, current: 7_500 });
    // One webhook-log entry of that webhook: the request and the answer, one attempt.
    const logs = await logsOf(t, p.entity, { webhook_id: p.webhook });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      event: 'card_authorizations.request',
      attempt: 1,
      status: 'succeeded',
      response: { status_code: 200, body: '{"approved":true}' },
    });
    expect(logs[0].request.headers['webhook-signature']).toBe('***');
  });

  it('declined: declined_by_endpoint with its reason, nothing held or debited', async () => {
    const p = await program();
    endpoint.answer(p.path, { status: 200, body: { approved: false, reason: 'over the team budget' } });
    const res = await authorize(t, p.card, { amount: 2_500 }).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'declined',
      status_reason: 'declined_by_endpoint',
      authorization: { source: 'endpoint', endpoint_status: 200, reason: 'over the team budget' },
    });
    expect(await balance(t, p.account)).toEqual({ available: 10_000, current: 10_000 });
    expect((await details(t, p.card)).body.data).toMatchObject({ amount_hold: 0, amount_used: 0 });
  });

  it('partial: holds only what was approved (balance, controls’ usage), then captures it', async () => {
    const p = await program(10_000, { individual_controls: { daily_amount_limit: 5_000 } });
    endpoint.answer(p.path, { status: 200, body: { approved: true, amount: 1_500 } });
    const held = (await authorize(t, p.card, { amount: 4_000, capture: false }).expect(201)).body.data;
    expect(held).toMatchObject({ status: 'pending', amount: 1_500, authorization: { source: 'endpoint' } });
    expect(await balance(t, p.account)).toEqual({ available: 8_500, current: 10_000 });
    expect((await details(t, p.card)).body.data).toMatchObject({ amount_hold: 1_500, daily_amount_limit_hold: 1_500 });
    const captured = (
      await t.http.post(`/sandbox/card-transactions/${held.id}/capture`).set(bearer(KEYS.sandbox)).send({}).expect(200)
    ).body.data;
    expect(captured).toMatchObject({ status: 'successful', amount: 1_500 });
    expect(await balance(t, p.account)).toEqual({ available: 8_500, current: 8_500 });
    expect((await details(t, p.card)).body.data).toMatchObject({
      amount_hold: 0,
      amount_used: 1_500,
      daily_amount_limit_used: 1_500,
    });
  });

  it.each([
    ['decline (the default)', {}, 'declined'],
    ['approve', { authorization_fallback: 'approve' }, 'successful'],
  ])('no answer in time: the card’s fallback decides, %s', async (_name, card, status) => {
    const p = await program(10_000, card);
    endpoint.answer(p.path, 'hang');
    const res = await authorize(t, p.card, { amount: 1_000 }).expect(201);
    expect(res.body.data).toMatchObject({
      status,
      authorization: { source: 'fallback', endpoint_status: null, reason: 'no_answer' },
    });
    expect(endpoint.on(p.path)).toHaveLength(1);
    expect(await balance(t, p.account)).toEqual(
      status === 'successful' ? { available: 9_000, current: 9_000 } : { available: 10_000, current: 10_000 },
    );
  });

  it.each([
    ['a body that is no answer', { status: 200, body: 'yes please' }, 200, 'invalid_answer'],
    ['an amount above the requested', { status: 200, body: { approved: true, amount: 1_001 } }, 200, 'invalid_answer'],
    ['a 500', { status: 500, body: { approved: true } }, 500, 'http_500'],
  ])('%s: the fallback decides', async (_name, answer, endpoint_status, reason) => {
    const p = await program();
    endpoint.answer(p.path, answer);
    const res = await authorize(t, p.card, { amount: 1_000 }).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'declined',
      status_reason: 'declined_by_endpoint',
      authorization: { source: 'fallback', endpoint_status, reason },
    });
  });

  it('past the per-entity concurrency limit the endpoint is not asked: the fallback decides, recorded as such', async () => {
    const p = await program(10_000, { authorization_fallback: 'approve' });
    endpoint.answer(p.path, 'hang');
    // Sent now (a supertest request starts when awaited or then-ed), answered once the endpoint times out.
    const first = authorize(t, p.card, { amount: 1_000 }).then((res) => res);
    await waitFor(
      () => endpoint.on(p.path).length,
      (asked) => asked === 1,
      'the first authorization waiting on the endpoint',
    );
    const second = await authorize(t, p.card, { amount: 2_000 }).expect(201);
    expect(second.body.data).toMatchObject({
      status: 'successful',
      amount: 2_000,
      authorization: { source: 'fallback', endpoint_status: null, latency_ms: null, reason: 'concurrency_limit' },
    });
    expect((await first).body.data).toMatchObject({ authorization: { source: 'fallback', reason: 'no_answer' } });
    expect(endpoint.on(p.path)).toHaveLength(1);
  });

  it('an authorization the platform declines is never sent', async () => {
    const p = await program(500);
    const res = await authorize(t, p.card, { amount: 1_000 }).expect(201);
    expect(res.body.data).toMatchObject({
      status: 'declined',
      status_reason: 'insufficient_funds',
      authorization: { source: 'platform', endpoint_status: null },
    });
    await t.http.patch(`/card-details/${p.card}/freeze`).set(bearer(KEYS.sandbox)).send({}).expect(200);
    expect((await authorize(t, p.card, { amount: 100 }).expect(201)).body.data).toMatchObject({
      status: 'declined',
      status_reason: 'card_blocked',
    });
    expect(endpoint.on(p.path)).toEqual([]);
  });

  it('one endpoint per entity: a second active one is refused 409; `all: true` is no endpoint', async () => {
    const p = await program();
    const second = await endpoint.subscribe(t, p.entity, `/second-${n}`);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('authorization_endpoint_exists');
    // A webhook of every event is not asked: another entity's authorizations stay the platform's.
    const other = await holder(t, 'USD', 10_000);
    expect((await endpoint.subscribe(t, other.entity, `/all-${n}`, { all: true })).status).toBe(201);
    expect((await endpoint.subscribe(t, p.entity, `/all-on-program-${n}`, { all: true })).status).toBe(201);
    const card = (await virtualCard(t, other.account)).id;
    expect((await authorize(t, card, { amount: 1_000 }).expect(201)).body.data).toMatchObject({
      status: 'successful',
      authorization: { source: 'platform' },
    });
    expect(endpoint.on(`/all-${n}`).filter((a) => a.payload.event === 'card_authorizations.request')).toEqual([]);
  });

  it('one endpoint per entity holds when creations race: one 201, the others 409 (decided on the entity’s index stream)', async () => {
    const h = await holder(t, 'USD', 0);
    const racing = await Promise.all([1, 2, 3].map((i) => endpoint.subscribe(t, h.entity, `/race-${++n}-${i}`)));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const refused of racing.filter((r) => r.status === 409))
      expect(refused.body.code).toBe('authorization_endpoint_exists');
    // A webhook that asks for no authorization is never held back by a claim.
    expect((await endpoint.subscribe(t, h.entity, `/race-${n}-other`, { cards: ['created'] })).status).toBe(201);
  });

  it('a request that dies after asking: the recovery records the fallback (no_outcome) and releases the hold; a late answer changes nothing', async () => {
    const p = await program(10_000);
    // The request asks, then never hears back: what a process dying mid-call leaves (CardAuthorizationRequested, no outcome).
    const caller = t.app.get<AuthorizationEndpointCaller>(CARD_AUTHORIZATION_CALLER);
    let answerLate!: (reply: EndpointReply) => void;
    const asked = jest
      .spyOn(caller, 'ask')
      .mockImplementationOnce(() => new Promise((resolve) => (answerLate = resolve)));
    const dying = authorize(t, p.card, { amount: 1_000 }).then((res) => res);
    // Whatever fails below, the request must end, or the app's close waits on it.
    const late = { status: 200, body: '{"approved":true}', latency_ms: 1, limited: false };
    afterDying = () => answerLate?.(late);
    await waitFor(
      () => asked.mock.calls.length,
      (calls) => calls === 1,
      'the endpoint asked',
    );
    expect(await balance(t, p.account)).toEqual({ available: 9_000, current: 10_000 });
    // The recovery sleeps on the app's clock until the request's timeout and the outcome's margin
    // have passed: move the clock there rather than wait 6.5 s.
    t.clock.advance(TIMEOUT_MS + AUTHORIZATION_OUTCOME_MARGIN_MS);
    const transactions = async () =>
      (await t.http.get(`/card-transactions/${p.card}`).set(bearer(KEYS.sandbox)).expect(200)).body.data
        .payments as Array<Record<string, any>>;
    const [recovered] = await waitFor(transactions, (list) => list[0]?.status === 'declined', 'the recovery’s outcome');
    expect(recovered).toMatchObject({
      status: 'declined',
      status_reason: 'declined_by_endpoint',
      authorization: { source: 'fallback', endpoint_status: null, latency_ms: null, reason: 'no_outcome' },
    });
    await waitFor(
      () => balance(t, p.account),
      (b) => b.available === 10_000,
      'the hold released',
    );
    // The answer arrives after all: the first outcome stands, and the request answers with it.
    answerLate(late);
    expect((await dying).body.data).toMatchObject({
      id: recovered.id,
      status: 'declined',
      authorization: { source: 'fallback', reason: 'no_outcome' },
    });
    expect(await transactions()).toMatchObject([
      { id: recovered.id, status: 'declined', authorization: { reason: 'no_outcome' } },
    ]);
    expect(await balance(t, p.account)).toEqual({ available: 10_000, current: 10_000 });
    asked.mockRestore();
  });

  it('a replayed Idempotency-Key returns the decision without asking again', async () => {
    const p = await program();
    endpoint.answer(p.path, { status: 200, body: { approved: true, amount: 700 } });
    const send = () =>
      t.http
        .post(`/sandbox/cards/${p.card}/authorizations`)
        .set(bearer(KEYS.sandbox))
        .set('Idempotency-Key', `auth-${p.card}`)
        .send({
          amount: 1_000,
          currency: 'USD',
          merchant: { name: 'Shop', mcc: '5942', city: 'Lagos', state: 'LA', postal_code: '100001', country: 'NG' },
        });
    const first = (await send().expect(201)).body.data;
    const again = await send().expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first);
    expect(endpoint.on(p.path)).toHaveLength(1);
  });
});
