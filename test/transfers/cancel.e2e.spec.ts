import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import { readyIndividual } from '../onboarding/fixtures';
import { tokenFor } from '../support/fixtures';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';
import { balanced, cancel, historyTypes, ledgerAccount, ledgerOf, replayVerify } from './cancel-helpers';
import { BANK_USD, advance, balanceOf, bookTo, paymentDetail, payer, post, transferBody } from './helpers';

const TOKEN = `op_${'c'.repeat(40)}`;
const operator = { Authorization: `Bearer ${TOKEN}` };

/**
 * Decisions §14 through HTTP: a pending payout is taken back, its hold released before the answer
 * (the pending ledger transaction voided, no fee), `TransferCancelled` in its history and
 * `outflows.cancelled` at a real HTTPS receiver verifying with `standardwebhooks`.
 */
describe('POST /transfers/{id}/cancel (decisions §14)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let p: Awaited<ReturnType<typeof payer>>;
  let bank: string;
  let closed = false;
  const dataDir = mkdtempSync(join(tmpdir(), 'transfer-cancel-'));

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    t = await startWebhookApp({ PAYMENTS_ADMIN_TOKEN: TOKEN }, dataDir);
    p = await payer(t, 'USD', 500_000);
    bank = await paymentDetail(t, p.counterparty, BANK_USD);
  });
  afterAll(async () => {
    if (!closed) await t?.close();
    await receiver?.close();
    restoreEnv?.();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const create = async (amount = 10_000) =>
    (await post(t, transferBody(p.account, bank, { amount })).expect(201)).body as {
      id: string;
      fee: number;
      status: string;
    };
  const get = async (id: string) =>
    (await t.http.get(`/transfers/${id}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(200)).body;

  it('gives amount + fee back before answering, posts nothing, takes no fee; TransferCancelled and outflows.cancelled follow', async () => {
    await webhookTo(t, receiver, '/cancelled', { entity_id: p.entity, enabled_events: { outflows: ['cancelled'] } });
    const before = await balanceOf(t, p.account);
    const ledgerBefore = await ledgerOf(t);
    const tr = await create(10_000);
    expect(tr.fee).toBeGreaterThan(0);
    expect(await balanceOf(t, p.account)).toEqual({
      available: before.available - 10_000 - tr.fee,
      current: before.current,
    });

    const res = await cancel(t, tr.id, { entity_id: p.entity, reason: 'Wrong amount, sent again' }).expect(200);
    expect(res.body).toMatchObject({
      id: tr.id,
      object: 'transfer',
      status: 'cancelled',
      status_reason: 'Wrong amount, sent again',
      amount: 10_000,
      fee: tr.fee,
    });
    // Decisions §2: the effect is applied before the answer.
    expect(await balanceOf(t, p.account)).toEqual(before);
    expect(await get(tr.id)).toEqual(res.body);

    // The pending transaction is voided: nothing posted anywhere, fees:USD not credited.
    const ledger = await ledgerOf(t);
    expect(ledgerAccount(ledger, p.account)).toEqual({ ...ledgerAccount(ledgerBefore, p.account), id: p.account });
    expect(ledgerAccount(ledger, 'fees:USD')).toMatchObject(ledgerAccount(ledgerBefore, 'fees:USD'));
    expect(ledgerAccount(ledger, 'clearing:bank-transfer:USD')).toMatchObject(
      ledgerAccount(ledgerBefore, 'clearing:bank-transfer:USD'),
    );
    expect(balanced(ledger)).toBe(true);

    expect(await historyTypes(t, tr.id)).toEqual(['TransferCreated', 'TransferCancelled']);
    const [hook] = await eventually(
      () => receiver.on('/cancelled'),
      (r) => r.length >= 1,
    );
    expect(hook.payload).toMatchObject({ event: 'outflows.cancelled', entity_id: p.entity, data: res.body });

    await t.settle();
    const listed = (
      await t.http.get(`/transfers?entity_id=${p.entity}&status=cancelled`).set(bearer(KEYS.sandbox)).expect(200)
    ).body.data as Array<{ id: string; status: string }>;
    expect(listed.map((l) => [l.id, l.status])).toContainEqual([tr.id, 'cancelled']);
    expect(listed.every((l) => l.status === 'cancelled')).toBe(true);
  });

  it('says cancelled_by_request without a reason, and infers the entity from an entity token', async () => {
    const tr = await create(1_000);
    const token = await tokenFor(t, p.entity);
    const res = await cancel(t, tr.id, {}, token).expect(200);
    expect(res.body).toMatchObject({ status: 'cancelled', status_reason: 'cancelled_by_request' });
  });

  it('needs entity_id with an API key, a reason of 1-100 characters, and finds no other entity’s transfer', async () => {
    const tr = await create(1_000);
    await cancel(t, tr.id, {}).expect(400);
    await cancel(t, tr.id, { entity_id: p.entity, reason: '' }).expect(400);
    await cancel(t, tr.id, { entity_id: p.entity, reason: 'x'.repeat(101) }).expect(400);
    const other = await payer(t, 'USD', 0);
    await cancel(t, tr.id, { entity_id: other.entity }).expect(404);
    await cancel(t, tr.id, { entity_id: p.entity }, KEYS.other).expect(404);
    expect((await get(tr.id)).status).toBe('pending');
  });

  const paths: Array<[string, string[]]> = [
    ['processing', ['processing']],
    ['successful', ['processing', 'successful']],
    ['failed', ['failed']],
    ['reversed', ['processing', 'successful', 'reversed']],
    ['cancelled', []],
  ];
  it.each(paths)(
    'refuses a %s transfer with 409 invalid_state, leaving it and the balance unchanged',
    async (status, moves) => {
      const tr = await create(2_000);
      for (const to of moves) await advance(t, tr.id, { to }).expect(200);
      if (status === 'cancelled') await cancel(t, tr.id, { entity_id: p.entity }).expect(200);
      const [transfer, balance, history] = [
        await get(tr.id),
        await balanceOf(t, p.account),
        await historyTypes(t, tr.id),
      ];
      expect(transfer.status).toBe(status);

      const res = await cancel(t, tr.id, { entity_id: p.entity }).expect(409);
      expect(res.body).toMatchObject({ status: 'error', code: 'invalid_state', current_status: status });
      expect([await get(tr.id), await balanceOf(t, p.account), await historyTypes(t, tr.id)]).toEqual([
        transfer,
        balance,
        history,
      ]);
    },
  );

  it('refuses a book transfer with 409 invalid_state: it settled at once', async () => {
    const savings = (await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD' })).id;
    const book = await paymentDetail(t, p.counterparty, bookTo(savings));
    const tr = (
      await post(
        t,
        transferBody(p.account, book, { amount: 3_000, payment_type: 'book-transfer' }),
        '/transfers',
      ).expect(201)
    ).body as { id: string };
    const [transfer, balance] = [await get(tr.id), await balanceOf(t, savings)];
    const res = await cancel(t, tr.id, { entity_id: p.entity }).expect(409);
    expect(res.body.code).toBe('invalid_state');
    expect([await get(tr.id), await balanceOf(t, savings)]).toEqual([transfer, balance]);
  });

  it('is refused to the sandbox advance (not one of its moves), and the sandbox cannot move a cancelled transfer', async () => {
    const tr = await create(1_000);
    await advance(t, tr.id, { to: 'cancelled' }).expect(400);
    await cancel(t, tr.id, { entity_id: p.entity }).expect(200);
    const res = await advance(t, tr.id, { to: 'processing' }).expect(409);
    expect(res.body.code).toBe('invalid_transition');
    expect(await historyTypes(t, tr.id)).toEqual(['TransferCreated', 'TransferCancelled']);
  });

  it('in live mode, the customer and the operator cancel a payout waiting for the operator', async () => {
    const entity = await readyIndividual(t, {}, KEYS.live);
    await t.http.post('/onboarding-submissions').set(bearer(KEYS.live)).send({ entity_id: entity.id }).expect(200);
    await t.http.post(`/admin/entities/${entity.id}/review`).set(operator).send({ decision: 'approved' }).expect(200);
    const account = (await openAccount(t, KEYS.live, { entity_id: entity.id, currency: 'USD' })).id;
    const wire = {
      amount: 100_000,
      currency: 'USD',
      rail: 'bank-transfer',
      reference: `wire-${Date.now()}`,
      sender: 'ACME Trading Ltd',
    };
    await t.http.post(`/admin/accounts/${account}/inflows`).set(operator).send(wire).expect(201);
    const counterparty = await createCounterparty(t, entity.id, {}, KEYS.live);
    const detail = await paymentDetail(t, counterparty.id, BANK_USD, KEYS.live);
    const payout = async () =>
      (await post(t, transferBody(account, detail, { amount: 40_000 }), '/transfer', KEYS.live).expect(201)).body as {
        id: string;
      };

    const mine = await payout();
    await cancel(t, mine.id, { entity_id: entity.id, reason: 'duplicate' }, KEYS.live).expect(200);
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 100_000, current: 100_000 });

    const theirs = await payout();
    await t.http
      .post(`/admin/transfers/${theirs.id}/advance`)
      .set(operator)
      .send({ to: 'cancelled', status_reason: 'Not Snake' })
      .expect(400);
    const res = await t.http
      .post(`/admin/transfers/${theirs.id}/advance`)
      .set(operator)
      .send({ to: 'cancelled', status_reason: 'sanctions_match' })
      .expect(200);
    expect(res.body).toMatchObject({ id: theirs.id, status: 'cancelled', status_reason: 'sanctions_match' });
    expect(await balanceOf(t, account, KEYS.live)).toEqual({ available: 100_000, current: 100_000 });
    expect(await historyTypes(t, theirs.id, KEYS.live)).toEqual(['TransferCreated', 'TransferCancelled']);
    // Once cancelled, the operator's own moves are refused too.
    await t.http.post(`/admin/transfers/${theirs.id}/advance`).set(operator).send({ to: 'processing' }).expect(409);
    await t.http.post(`/admin/transfers/${theirs.id}/advance`).set(operator).send({ to: 'cancelled' }).expect(409);
    expect(balanced(await ledgerOf(t, KEYS.live))).toBe(true);
  });

  it('replay --verify rebuilds the ledger and read models identically after the cancels', async () => {
    await t.settle();
    await t.app.close();
    closed = true;
    const run = await replayVerify(dataDir);
    expect(run.output.split('\n').filter((l) => l.startsWith('DIFFERENCE'))).toEqual([]);
    expect(run.status).toBe(0);
  });
});
