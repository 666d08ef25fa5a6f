import { confirm, createIntent, walletAction } from '../collections/helpers';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { payer } from '../transfers/helpers';

/** The account list shows the balance GET /accounts/{id} shows, after every kind of money event (collections and refunds included). */
describe('GET /accounts balances', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('follow collections and refunds', async () => {
    const p = await payer(t, 'USD', 1_000);
    const intent = await createIntent(t, p.account, { amount: 10_000 });
    await confirm(t, intent.id, walletAction()).expect(201);
    await t.http
      .post(`/payment-intents/${intent.id}/refunds`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 2_500 })
      .expect(201);
    const byId = (await t.http.get(`/accounts/${p.account}`).set(bearer(KEYS.sandbox)).expect(200)).body;
    const listed = (
      await t.http.get(`/accounts?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(200)
    ).body.data.find((a: { id: string }) => a.id === p.account);
    expect(byId.balance).toEqual({ available: 1_000 + 10_000 - 250 - 2_500, current: 1_000 + 10_000 - 250 - 2_500 });
    expect(listed.balance).toEqual(byId.balance);
    expect(listed.updated).toEqual(byId.updated);
  });
});
