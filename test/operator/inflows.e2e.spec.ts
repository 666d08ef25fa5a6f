import { inflowReferenceDecider } from '@app/domain/accounts/inflow-reference/inflow-reference';
import { handleCommand, type CommandContext } from '@app/application/command-handling';
import { inflowReferenceStream } from '@app/application/accounts/record-inflow/inflow-streams';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import { readyIndividual } from '../onboarding/fixtures';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { BANK_USD, balanceOf, paymentDetail, post, statement, transferBody } from '../transfers/helpers';
import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';

const TOKEN = 'op_' + 'y'.repeat(40);
const operator = { Authorization: `Bearer ${TOKEN}` };
const STE_ID = /^ste_[0-9A-HJKMNP-TV-Z]{26}\d{10}$/;
const TXN_ID = /^txn_[0-9A-HJKMNP-TV-Z]{26}$/;

/** POST /admin/accounts/{id}/inflows (decisions §11): money received on a rail, recorded by the operator. */
describe('operator inflows (decisions §11)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    t = await startWebhookApp({ PAYMENTS_ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const store = () => t.app.get<EventStore>(EVENT_STORE);
  const inflow = (accountId: string, body: Record<string, unknown>, auth: Record<string, string> = operator) =>
    t.http.post(`/admin/accounts/${accountId}/inflows`).set(auth).send(body);
  const wire = (over: Record<string, unknown> = {}) => ({
    amount: 100_000,
    currency: 'USD',
    rail: 'bank-transfer',
    reference: `wire-${Math.random().toString(36).slice(2)}`,
    sender: 'ACME Trading Ltd',
    ...over,
  });

  /** A live individual approved by the operator, and a USD account of it. */
  async function liveAccount(currency = 'USD') {
    const entity = await readyIndividual(t, {}, KEYS.live);
    await t.http.post('/onboarding-submissions').set(bearer(KEYS.live)).send({ entity_id: entity.id }).expect(200);
    await t.http.post(`/admin/entities/${entity.id}/review`).set(operator).send({ decision: 'approved' }).expect(200);
    const account = await openAccount(t, KEYS.live, { entity_id: entity.id, currency });
    return { entity: entity.id as string, account: account.id };
  }

  it('credits a live account, which then pays out, the operator settling the payout: balance debited amount + fee', async () => {
    const { entity, account } = await liveAccount();
    await webhookTo(
      t,
      receiver,
      '/live-inflows',
      { entity_id: entity, enabled_events: { inflows: ['completed'] } },
      KEYS.live,
    );
    await t.settle();

    const received = await inflow(account, wire({ reference: 'wire-0001' })).expect(201);
    expect(received.body).toEqual({
      id: expect.stringMatching(STE_ID),
      object: 'account_transaction',
      account_id: account,
      type: 'credit',
      amount: 100_000,
      fee: null,
      transfer_id: null,
      transaction_id: expect.stringMatching(TXN_ID),
      payment_intent_id: null,
      balance_after: { available: 100_000, current: 100_000 },
      created: expect.any(Number),
    });
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 100_000, current: 100_000 });
    // The statement lists the very entry the 201 answered with.
    await t.settle();
    const listed = (await t.http.get(`/accounts/${account}/transactions`).set(bearer(KEYS.live)).expect(200)).body.data;
    expect(listed).toEqual([received.body]);

    // On the log: an AccountFunded from the rail, recorded by the operator in the live world.
    const funded = (await store().readStream(`account-${account}`)).find((e) => e.type === 'AccountFunded')!;
    expect(funded.data).toMatchObject({
      source: 'inflow',
      rail: 'bank-transfer',
      reference: 'wire-0001',
      sender: 'ACME Trading Ltd',
      transaction_id: received.body.transaction_id,
    });
    expect(funded.metadata).toMatchObject({ actor: 'operator', mode: 'live', entity_id: entity });
    const events = (
      await t.http.get(`/events?type=AccountFunded&resource_id=${account}`).set(bearer(KEYS.live)).expect(200)
    ).body.data;
    expect(events).toEqual([
      expect.objectContaining({
        type: 'AccountFunded',
        resource_type: 'account',
        resource_id: account,
        metadata: expect.objectContaining({ actor: 'operator' }),
      }),
    ]);

    // inflows.completed, as for sandbox funding: the transaction.
    const hooks = await eventually(
      () => receiver.on('/live-inflows'),
      (r) => r.length >= 1,
    );
    expect(hooks.map((r) => r.payload.event)).toEqual(['inflows.completed']);
    expect(hooks[0].payload).toMatchObject({ entity_id: entity });
    expect(hooks[0].payload.data).toEqual({
      id: received.body.transaction_id,
      object: 'transaction',
      type: 'credit',
      account_id: account,
      amount: 100_000,
      currency: 'USD',
      status: 'settled',
      created_at: new Date(received.body.created).toISOString(),
    });

    // The money goes out again through an ordinary live payout, moved by the operator.
    const counterparty = await createCounterparty(t, entity, {}, KEYS.live);
    const detail = await paymentDetail(t, counterparty.id, BANK_USD, KEYS.live);
    const created = await post(t, transferBody(account, detail, { amount: 40_000 }), '/transfer', KEYS.live).expect(
      201,
    );
    const fee = created.body.fee as number;
    expect(fee).toBeGreaterThan(0);
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 100_000 - 40_000 - fee, current: 100_000 });
    await t.http
      .post(`/admin/transfers/${created.body.id}/advance`)
      .set(operator)
      .send({ to: 'processing' })
      .expect(200);
    const done = await t.http
      .post(`/admin/transfers/${created.body.id}/advance`)
      .set(operator)
      .send({ to: 'successful' })
      .expect(200);
    expect(done.body).toMatchObject({ id: created.body.id, status: 'successful' });
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 60_000 - fee, current: 60_000 - fee });
    expect((await statement(t, account, KEYS.live)).map((e) => [e.type, e.amount])).toEqual([
      ['credit', 100_000],
      ['hold', 40_000 + fee],
      ['debit', 40_000 + fee],
    ]);
  });

  it('answers the same reference on the same account with 409 and the first transaction, however often and however raced', async () => {
    const { account } = await liveAccount();
    const first = await inflow(account, wire({ reference: 'dup-1', amount: 500 })).expect(201);
    for (const retry of [
      wire({ reference: 'dup-1', amount: 500 }),
      wire({ reference: 'dup-1', amount: 999, currency: 'EUR', sender: undefined }),
    ]) {
      const res = await inflow(account, retry).expect(409);
      expect(res.body).toEqual({
        status: 'error',
        code: 'duplicate_reference',
        message: expect.stringContaining('dup-1'),
        errors: [{ field: 'reference', message: expect.any(String) }],
        ...first.body,
        transaction: first.body,
      });
    }
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 500, current: 500 });

    // The same reference on another account is another inflow.
    const other = await liveAccount();
    await inflow(other.account, wire({ reference: 'dup-1', amount: 500 })).expect(201);

    // Racing duplicates: exactly one credit, every other answer the same first transaction.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => inflow(account, wire({ reference: 'race-1', amount: 7 }))),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const winner = answers.find((r) => r.status === 201)!.body;
    for (const r of answers.filter((a) => a.status === 409)) expect(r.body.transaction).toEqual(winner);
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 507, current: 507 });
  });

  it('finishes an inflow whose request died after reserving its reference: the retry credits it once, with the reserved id', async () => {
    const { entity, account } = await liveAccount();
    const [opened] = await store().readStream(`account-${account}`);
    const context: CommandContext = {
      actor: { kind: 'operator', organizationId: opened.metadata.organization_id, mode: 'live', id: 'operator' },
      correlationId: 'req_crashed',
      causationId: 'req_crashed',
    };
    const revision = (await store().readStream(`account-${account}`)).length - 1;
    const transaction_id = 'txn_01J0CRASHED000000000000000';
    const reserved = {
      transaction_id,
      account_id: account,
      amount: 321,
      currency: 'USD',
      rail: 'momo-transfer',
      reference: 'crashed-1',
      sender: null,
    };
    await handleCommand(
      store(),
      inflowReferenceStream(account, 'crashed-1'),
      inflowReferenceDecider,
      { type: 'ReserveInflowReference', inflow: reserved, account_revision: revision, now: Date.now() },
      context,
      {
        entityId: entity,
      },
    );
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 0, current: 0 });

    const retried = await inflow(account, wire({ reference: 'crashed-1', amount: 321, rail: 'momo-transfer' })).expect(
      409,
    );
    expect(retried.body.transaction).toMatchObject({
      transaction_id,
      amount: 321,
      balance_after: { available: 321, current: 321 },
    });
    const again = await inflow(account, wire({ reference: 'crashed-1', amount: 321, rail: 'momo-transfer' })).expect(
      409,
    );
    expect(again.body.transaction).toEqual(retried.body.transaction);
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 321, current: 321 });
    await t.settle();
    expect(
      (await t.http.get(`/accounts/${account}/transactions`).set(bearer(KEYS.live)).expect(200)).body.data,
    ).toEqual([retried.body.transaction]);
  });

  it('refuses another currency with 422 currency_mismatch, and a rail the currency does not move on with 422 rail_not_supported, writing nothing', async () => {
    const { account } = await liveAccount();
    const before = (await store().readStream(`account-${account}`)).length;
    const mismatch = await inflow(account, wire({ currency: 'EUR', reference: 'eur-1' })).expect(422);
    expect(mismatch.body).toMatchObject({
      status: 'error',
      code: 'currency_mismatch',
      errors: [{ field: 'currency' }],
    });
    const rail = await inflow(account, wire({ rail: 'stablecoin-transfer', reference: 'usc-1' })).expect(422);
    expect(rail.body).toMatchObject({ code: 'rail_not_supported', errors: [{ field: 'rail' }] });
    expect((await store().readStream(`account-${account}`)).length).toBe(before);
    for (const reference of ['eur-1', 'usc-1'])
      expect(await store().readStream(inflowReferenceStream(account, reference))).toEqual([]);
    // The refused reference was not burnt.
    await inflow(account, wire({ reference: 'eur-1' })).expect(201);
  });

  it.each([
    ['rail book-transfer (own accounts: a book transfer)', { rail: 'book-transfer' }, 'rail'],
    ['an account-details rail', { rail: 'ach' }, 'rail'],
    ['no rail', { rail: undefined }, 'rail'],
    ['amount 0', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -100 }, 'amount'],
    ['a fractional amount', { amount: 1.5 }, 'amount'],
    ['an amount as a string', { amount: '100' }, 'amount'],
    ['an amount beyond the safe range', { amount: Number.MAX_SAFE_INTEGER + 2 }, 'amount'],
    ['a lowercase currency', { currency: 'usd' }, 'currency'],
    ['no reference', { reference: undefined }, 'reference'],
    ['a blank reference', { reference: '   ' }, 'reference'],
    ['a reference over 64 characters', { reference: 'r'.repeat(65) }, 'reference'],
    ['a control character in the reference', { reference: 'wire\u0007' }, 'reference'],
    ['a sender over 140 characters', { sender: 's'.repeat(141) }, 'sender'],
    ['a newline in the sender (not free text)', { sender: 'ACME\nLtd' }, 'sender'],
    ['a sender that is not text', { sender: 42 }, 'sender'],
    ['an unknown field', { memo: 'x' }, 'memo'],
  ])('answers 400 to %s, naming the field and writing nothing', async (_what, over, field) => {
    const { account } = await sharedAccount();
    const body: Record<string, unknown> = wire({ reference: 'bad-input', ...over });
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const before = (await store().readStream(`account-${account}`)).length;
    await t.settle();
    const listedBefore = (await t.http.get(`/accounts/${account}/transactions`).set(bearer(KEYS.live)).expect(200)).body
      .data;
    expect(listedBefore).toEqual([expect.objectContaining({ type: 'credit', amount: 1_234 })]);
    const res = await inflow(account, body).expect(400);
    expect(res.body).toMatchObject({ status: 'error' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect((await store().readStream(`account-${account}`)).length).toBe(before);
    expect(await store().readStream(inflowReferenceStream(account, 'bad-input'))).toEqual([]);
    await t.settle();
    expect(
      (await t.http.get(`/accounts/${account}/transactions`).set(bearer(KEYS.live)).expect(200)).body.data,
    ).toEqual(listedBefore);
  });

  /** One live account with money on it already, so "nothing written" compares a real statement. */
  let shared: Promise<{ entity: string; account: string }> | null = null;
  const sharedAccount = () =>
    (shared ??= liveAccount().then(async (live) => {
      await inflow(live.account, wire({ amount: 1_234, reference: 'opening' })).expect(201);
      return live;
    }));

  it('answers 401 without the operator token, with a wrong one, or with an API key; 404 for unknown accounts', async () => {
    const { account } = await sharedAccount();
    for (const auth of [{}, { Authorization: `Bearer ${TOKEN}x` }, bearer(KEYS.live), { Authorization: TOKEN }]) {
      const res = await inflow(account, wire(), auth).expect(401);
      expect(res.body).toMatchObject({ status: 'error', code: 'unauthorized' });
    }
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 1_234, current: 1_234 });
    for (const id of ['acc_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nope', 'account-number-ach-123']) {
      expect((await inflow(id, wire())).status).toBe(404);
    }
  });

  it('records inflows in any mode: a sandbox account takes one as well', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox);
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USC' });
    const res = await inflow(
      account.id,
      wire({ currency: 'USC', rail: 'stablecoin-transfer', amount: 5_000_000, sender: undefined }),
    ).expect(201);
    expect(res.body).toMatchObject({
      type: 'credit',
      amount: 5_000_000,
      balance_after: { available: 5_000_000, current: 5_000_000 },
    });
    const funded = (await store().readStream(`account-${account.id}`)).find((e) => e.type === 'AccountFunded')!;
    expect(funded.data).toMatchObject({ source: 'inflow', rail: 'stablecoin-transfer', sender: null });
    expect(funded.metadata).toMatchObject({ actor: 'operator', mode: 'sandbox' });
  });
});
