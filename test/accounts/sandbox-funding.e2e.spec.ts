import { approvedEntity, tokenFor } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { UNKNOWN_ACCOUNT, openAccount } from './accounts-helpers';

describe('sandbox funding', () => {
  let t: TestApp;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t, KEYS.sandbox);
  });
  afterAll(() => t.close());

  const fund = (accountId: string, body: Record<string, unknown>, key: string = KEYS.sandbox) =>
    t.http.post(`/sandbox/accounts/${accountId}/fund`).set(bearer(key)).send(body);
  const store = () => t.app.get<EventStore>(EVENT_STORE);

  it('credits the account with a settled transaction and raises both balances', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    const res = await fund(account.id, { amount: 12_345, currency: 'USD' }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^txn_[0-9A-HJKMNP-TV-Z]{26}$/),
      object: 'transaction',
      type: 'credit',
      account_id: account.id,
      amount: 12_345,
      currency: 'USD',
      status: 'settled',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    await fund(account.id, { amount: 655, currency: 'USD' }).expect(201);
    const got = await t.http.get(`/accounts/${account.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body.balance).toEqual({ available: 13_000, current: 13_000 });
    expect(got.body.updated).toBeGreaterThanOrEqual(got.body.created);
    await t.settle();
    const listed = await t.http.get(`/accounts?entity_id=${entity}&currency=USD`).set(bearer(KEYS.sandbox)).expect(200);
    expect(listed.body.data.find((a: { id: string }) => a.id === account.id).balance).toEqual({
      available: 13_000,
      current: 13_000,
    });
  });

  it('records what the webhook worker needs for inflows.completed and accounts.updated', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'NGN' });
    const res = await fund(account.id, { amount: 500, currency: 'NGN' }).expect(201);
    const [, funded] = await store().readStream(`account-${account.id}`);
    expect(funded.type).toBe('AccountFunded');
    expect(funded.data).toEqual({
      account_id: account.id,
      entity_id: entity,
      transaction_id: res.body.id,
      amount: 500,
      currency: 'NGN',
      source: 'sandbox',
      balance_after: { available: 500, current: 500 },
      funded: Date.parse(res.body.created_at),
    });
    expect(funded.metadata).toMatchObject({
      entity_id: entity,
      organization_id: expect.any(String),
      event_id: expect.any(String),
      schema_version: 1,
    });
  });

  it('refuses another currency with 422 currency_mismatch and leaves the balance alone', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    const res = await fund(account.id, { amount: 100, currency: 'USD' }).expect(422);
    expect(res.body).toMatchObject({ status: 'error', code: 'currency_mismatch', errors: [{ field: 'currency' }] });
    expect((await t.http.get(`/accounts/${account.id}`).set(bearer(KEYS.sandbox))).body.balance).toEqual({
      available: 0,
      current: 0,
    });
  });

  it.each([
    [{ currency: 'USD' }, 'amount'],
    [{ amount: 0, currency: 'USD' }, 'amount'],
    [{ amount: -1, currency: 'USD' }, 'amount'],
    [{ amount: 1.5, currency: 'USD' }, 'amount'],
    [{ amount: '100', currency: 'USD' }, 'amount'],
    [{ amount: Number.MAX_SAFE_INTEGER + 1, currency: 'USD' }, 'amount'],
    [{ amount: 100 }, 'currency'],
    [{ amount: 100, currency: 'dollars' }, 'currency'],
    [{ amount: 100, currency: 'USD', note: 'x' }, 'note'],
  ])('answers 400 naming the field for %p', async (body, field) => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    const res = await fund(account.id, body).expect(400);
    expect(res.body.errors[0].field).toBe(field);
    expect((await store().readStream(`account-${account.id}`)).map((e) => e.type)).toEqual(['AccountOpened']);
  });

  it('refuses a credit beyond the largest safe balance with 422', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await fund(account.id, { amount: Number.MAX_SAFE_INTEGER, currency: 'USD' }).expect(201);
    expect((await fund(account.id, { amount: 1, currency: 'USD' }).expect(422)).body.code).toBe(
      'balance_limit_exceeded',
    );
  });

  it("answers 404 for an unknown account or another organization's, 403 for another entity's token, 401 without a key", async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    expect((await fund(UNKNOWN_ACCOUNT, { amount: 1, currency: 'USD' }).expect(404)).body.code).toBe(
      'account_not_found',
    );
    expect((await fund(account.id, { amount: 1, currency: 'USD' }, KEYS.other).expect(404)).body.code).toBe(
      'account_not_found',
    );
    const stranger = await tokenFor(t, await approvedEntity(t, KEYS.sandbox, 'Stranger'), KEYS.sandbox);
    expect((await fund(account.id, { amount: 1, currency: 'USD' }, stranger).expect(403)).body.code).toBe('forbidden');
    await t.http.post(`/sandbox/accounts/${account.id}/fund`).send({ amount: 1, currency: 'USD' }).expect(401);
    const own = await tokenFor(t, entity, KEYS.sandbox);
    await fund(account.id, { amount: 7, currency: 'USD' }, own).expect(201);
    expect((await t.http.get(`/accounts/${account.id}`).set(bearer(KEYS.sandbox))).body.balance.current).toBe(7);
  });

  it('refuses live keys with 403, and never funds a live account', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    expect((await fund(account.id, { amount: 1, currency: 'USD' }, KEYS.live).expect(403)).body.code).toBe(
      'sandbox_only',
    );

    // Sandbox and live are two worlds (decisions §1): a sandbox key cannot mint a live key, and a
    // live key does not see the sandbox-approved entity, so it cannot open a live account for it.
    expect(
      (await t.http.post('/api-keys').set(bearer(KEYS.sandbox)).send({ mode: 'live' }).expect(403)).body.code,
    ).toBe('forbidden_mode');
    const sandboxKey = (await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ mode: 'sandbox' }).expect(201))
      .body.key as string;
    const sandboxEntity = await approvedEntity(t, sandboxKey);
    await t.http
      .post('/accounts')
      .set(bearer(KEYS.live))
      .send({ entity_id: sandboxEntity, type: 'checking', currency: 'USD' })
      .expect(404);
    expect((await t.http.get(`/entities/${sandboxEntity}`).set(bearer(KEYS.live)).expect(404)).body.code).toBe(
      'entity_not_found',
    );
  });

  it('credits every one of 50 concurrent fundings exactly once', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'GBP' });
    const amounts = Array.from({ length: 50 }, (_, i) => 100 + i * 7);
    const results = await Promise.all(amounts.map((amount) => fund(account.id, { amount, currency: 'GBP' })));
    expect(results.map((r) => r.status)).toEqual(amounts.map(() => 201));
    const total = amounts.reduce((a, b) => a + b, 0);
    const got = await t.http.get(`/accounts/${account.id}`).set(bearer(KEYS.sandbox)).expect(200);
    expect(got.body.balance).toEqual({ available: total, current: total });

    const credits = (await store().readStream(`account-${account.id}`)).filter((e) => e.type === 'AccountFunded');
    expect(credits.map((e) => e.data.transaction_id).sort()).toEqual(results.map((r) => r.body.id).sort());
    expect(new Set(credits.map((e) => e.data.transaction_id)).size).toBe(50);
    // Each credit was decided on the balance the one before it left: no lost update anywhere.
    let running = 0;
    for (const credit of credits) {
      running += credit.data.amount as number;
      expect(credit.data.balance_after).toEqual({ available: running, current: running });
    }
    await t.settle();
    const listed = await t.http.get(`/accounts?entity_id=${entity}&currency=GBP`).set(bearer(KEYS.sandbox)).expect(200);
    expect(listed.body.data.find((a: { id: string }) => a.id === account.id).balance.current).toBe(total);
  });
});
