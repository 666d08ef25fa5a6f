import { approvedEntity } from '../support/fixtures';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { isValidServiceBan } from '@app/domain/accounts';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from './accounts-helpers';

describe('accounts: concurrency and restart', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('gives 40 accounts opened in parallel 40 distinct, reserved, check-digit-valid service BANs', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.http
          .post('/accounts')
          .set(bearer(KEYS.sandbox))
          .send({ entity_id: entity, currency: i % 2 ? 'USD' : 'EUR' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const bans = results.map((r) => r.body.service_ban as string);
    expect(new Set(bans).size).toBe(40);
    for (const ban of bans) expect(isValidServiceBan(ban)).toBe(true);
    const store = t.app.get<EventStore>(EVENT_STORE);
    for (const r of results) {
      const [reservation] = await store.readStream(`service-ban-${r.body.service_ban}`);
      expect(reservation.data).toEqual({ service_ban: r.body.service_ban, account_id: r.body.id });
    }
  });

  it('brings accounts, balances, account details and lists back the same after a restart', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Restart');
    const usd = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD', display_name: 'Durable' });
    const eur = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    await Promise.all(
      [1000, 2000, 3000].map((amount) =>
        t.http
          .post(`/sandbox/accounts/${usd.id}/fund`)
          .set(bearer(KEYS.sandbox))
          .send({ amount, currency: 'USD' })
          .expect(201),
      ),
    );
    const details = await t.http
      .post('/account-details')
      .set(bearer(KEYS.sandbox))
      .send({ account_id: eur.id, asset_type: 'fiat' })
      .expect(201);
    await t.settle();
    const snapshot = async () => ({
      usd: (await t.http.get(`/accounts/${usd.id}`).set(bearer(KEYS.sandbox)).expect(200)).body,
      eur: (await t.http.get(`/accounts/${eur.id}`).set(bearer(KEYS.sandbox)).expect(200)).body,
      list: (await t.http.get(`/accounts?entity_id=${entity}`).set(bearer(KEYS.sandbox)).expect(200)).body,
    });
    const before = await snapshot();
    expect(before.usd.balance).toEqual({ available: 6000, current: 6000 });
    expect(before.list.data).toEqual([before.eur, before.usd].sort((a, b) => (a.id < b.id ? 1 : -1)));

    t = await t.restart();
    await t.settle();
    expect(await snapshot()).toEqual(before);
    const again = await t.http
      .post('/account-details')
      .set(bearer(KEYS.sandbox))
      .send({ account_id: eur.id, asset_type: 'fiat' })
      .expect(200);
    expect(again.body).toEqual(details.body);

    // The list is a read model: dropped and rebuilt from the log, it comes back identical.
    await t.app.get<ReadStore>(READ_STORE).reset(['accounts'], ['accounts']);
    t = await t.restart();
    await t.settle();
    expect(await snapshot()).toEqual(before);

    // The restarted app keeps working on the same streams.
    await t.http
      .post(`/sandbox/accounts/${usd.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 1, currency: 'USD' })
      .expect(201);
    expect((await t.http.get(`/accounts/${usd.id}`).set(bearer(KEYS.sandbox))).body.balance).toEqual({
      available: 6001,
      current: 6001,
    });
  });
});
