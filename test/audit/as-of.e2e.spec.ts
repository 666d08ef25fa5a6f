import { openAccount } from '../accounts/accounts-helpers';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { auditWorkload } from './audit-workload';
import { BANK_USD, advance, fund, paymentDetail, payer, post, transferBody } from '../transfers/helpers';

jest.setTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (path: string, key: string = KEYS.sandbox) => t.http.get(path).set(bearer(key));
const history = async (path: string) =>
  (await get(`${path}/history`).expect(200)).body.data as Array<{ type: string; position: number; created: number }>;
/** Events a tick apart have distinct times: the app's clock moves on (rather than the test sleeping). */
const tick = () => t.clock.advance(5);

describe('as_of on GET by id', () => {
  it('before creation 404; between two events, the state after the first, by position, ms and ISO date-time', async () => {
    const entity = await approvedEntity(t);
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    tick();
    await fund(t, account.id, 1_000, 'USD');
    tick();
    await fund(t, account.id, 2_000, 'USD');
    const [opened, first, second] = await history(`/accounts/${account.id}`);
    expect([opened.type, first.type, second.type]).toEqual(['AccountOpened', 'AccountFunded', 'AccountFunded']);

    await get(`/accounts/${account.id}?as_of=position:${opened.position - 1}`).expect(404);
    await get(`/accounts/${account.id}?as_of=${opened.created - 1}`).expect(404);
    const byPosition = await get(`/accounts/${account.id}?as_of=position:${second.position - 1}`).expect(200);
    expect(byPosition.body.balance).toEqual({ available: 1_000, current: 1_000 });
    const byMs = await get(`/accounts/${account.id}?as_of=${second.created - 1}`).expect(200);
    expect(byMs.body.balance).toEqual({ available: 1_000, current: 1_000 });
    const byIso = await get(`/accounts/${account.id}?as_of=${new Date(first.created).toISOString()}`).expect(200);
    expect(byIso.body.balance.current).toBeGreaterThanOrEqual(1_000);
    expect((await get(`/accounts/${account.id}`).expect(200)).body.balance).toEqual({
      available: 3_000,
      current: 3_000,
    });
    const live = await get(`/accounts/${account.id}`).expect(200);
    expect({ ...byPosition.body, balance: live.body.balance, updated: live.body.updated }).toEqual(live.body);
  });

  it('a balance as of a time between two transfers', async () => {
    const p = await payer(t, 'USD', 100_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const one = (await post(t, transferBody(p.account, bank, { amount: 10_000 })).expect(201)).body;
    await advance(t, one.id, { to: 'processing' }).expect(200);
    await advance(t, one.id, { to: 'successful' }).expect(200);
    const between = (await get(`/accounts/${p.account}`).expect(200)).body.balance;
    tick();
    const mark = t.clock.now();
    tick();
    const two = (await post(t, transferBody(p.account, bank, { amount: 20_000 })).expect(201)).body;
    await advance(t, two.id, { to: 'processing' }).expect(200);
    await advance(t, two.id, { to: 'successful' }).expect(200);
    const now = (await get(`/accounts/${p.account}`).expect(200)).body.balance;
    expect(now.current).toBeLessThan(between.current);
    expect((await get(`/accounts/${p.account}?as_of=${mark}`).expect(200)).body.balance).toEqual(between);
    expect((await get(`/transfers/${two.id}?as_of=${mark}&entity_id=${p.entity}`)).status).toBe(404);
    expect((await get(`/transfers/${one.id}?as_of=${mark}&entity_id=${p.entity}`).expect(200)).body.status).toBe(
      'successful',
    );
  });

  it('works on every decided resource and leaves later reads and commands untouched', async () => {
    const p = await payer(t, 'USD', 5_000);
    const mark = Date.now() + 1_000_000;
    for (const path of [`/entities/${p.entity}`, `/accounts/${p.account}`, `/counterparties/${p.counterparty}`]) {
      expect((await get(`${path}?as_of=${mark}`).expect(200)).body).toEqual((await get(path).expect(200)).body);
    }
    await fund(t, p.account, 1, 'USD');
    expect((await get(`/accounts/${p.account}`).expect(200)).body.balance.current).toBe(5_001);
  });

  it('payment intents and intent actions as of their creation, and the account before the collection', async () => {
    const w = await auditWorkload(t);
    const [created, ...later] = await history(`/payment-intents/${w.intent}`);
    expect(later.length).toBeGreaterThan(0);
    const live = (await get(`/payment-intents/${w.intent}`).expect(200)).body;
    const then = (await get(`/payment-intents/${w.intent}?as_of=position:${created.position}`).expect(200)).body;
    expect(then.id).toBe(w.intent);
    expect(then.status).not.toBe(live.status);
    await get(`/payment-intents/${w.intent}?as_of=position:${created.position - 1}`).expect(404);
    const [actionCreated] = await history(`/intent-actions/${w.action}`);
    await get(`/intent-actions/${w.action}?as_of=position:${actionCreated.position - 1}`).expect(404);
    expect(
      (await get(`/intent-actions/${w.action}?as_of=position:${actionCreated.position}`).expect(200)).body.id,
    ).toBe(w.action);
    const before = (await get(`/accounts/${w.destination}?as_of=position:${created.position}`).expect(200)).body
      .balance;
    expect(before).toEqual({ available: 5_000 + 3_000, current: 5_000 + 3_000 });
  });

  it('answers 400 on a malformed as_of', async () => {
    const entity = await approvedEntity(t);
    for (const bad of ['yesterday', '2026-02-30T00:00:00Z', 'position:', 'position:-1', '1e5', '2026-01-01']) {
      const res = await get(`/entities/${entity}?as_of=${encodeURIComponent(bad)}`).expect(400);
      expect(res.body.errors).toEqual([{ field: 'as_of', message: expect.any(String) }]);
    }
  });
});
