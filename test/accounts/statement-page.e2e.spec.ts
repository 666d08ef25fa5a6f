import { accountStream } from '@app/application/accounts/streams';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { approvedEntity, tokenFor } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { openAccount } from './accounts-helpers';
import { fund } from '../transfers/helpers';

/**
 * Issue 26, "every read costs its page": a statement page reads the statement read model and the
 * account's document, never the account's stream. Its tenancy check folded the stream, which read
 * every event the worker had appended since the API last looked (143 ms on the first call after
 * 50,000 payouts). Tenancy is still the account's: another organization's is not found, another
 * entity's forbidden.
 */
describe('GET /accounts/{id}/transactions', () => {
  let t: TestApp;
  let account: string;
  let entity: string;
  beforeAll(async () => {
    t = await startTestApp();
    entity = await approvedEntity(t);
    account = (await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' })).id;
    await fund(t, account, 5_000, 'USD');
  });
  afterAll(() => t.close());

  it('reads no event of the account stream', async () => {
    const store = t.app.get<EventStore>(EVENT_STORE);
    const reads = jest.spyOn(store, 'readStream');
    try {
      const res = await t.http.get(`/accounts/${account}/transactions?limit=100`).set(bearer(KEYS.sandbox));
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
        ['credit', 5_000],
      ]);
      expect(reads.mock.calls.map(([stream]) => stream)).not.toContain(accountStream(account));
    } finally {
      reads.mockRestore();
    }
  });

  it("answers another organization's account as not found, and an unknown one", async () => {
    for (const [key, id] of [
      [KEYS.other, account],
      [KEYS.live, account],
      [KEYS.sandbox, 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
      [KEYS.sandbox, 'not-an-account'],
    ]) {
      const res = await t.http.get(`/accounts/${id}/transactions`).set(bearer(key));
      expect({ key, id, status: res.status, code: res.body.code }).toEqual({
        key,
        id,
        status: 404,
        code: 'account_not_found',
      });
    }
  });

  it("answers another entity's account as forbidden with an entity token", async () => {
    const res = await t.http
      .get(`/accounts/${account}/transactions`)
      .set(bearer(await tokenFor(t, await approvedEntity(t))));
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'forbidden' });
  });
});
