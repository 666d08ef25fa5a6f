import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { BANK_USD, balanceOf, payer, paymentDetail, transferBody } from '../transfers/helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Backpressure (issue 20): past MAX_INFLIGHT_WRITES write requests at once, the API answers 503
 * `overloaded` with Retry-After at once, before doing anything, instead of queueing the request
 * behind a slow writer; what it admitted completes whole.
 */
describe('an overloaded API answers fast and writes nothing for what it refuses', () => {
  let t: TestApp;
  afterEach(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  it('refuses a burst past the bound at once with 503 overloaded and Retry-After; admitted transfers complete, refused ones leave nothing', async () => {
    t = await startTestApp({ MAX_INFLIGHT_WRITES: '4' });
    const { account, counterparty } = await payer(t, 'USD', 1_000_000);
    const detail = await paymentDetail(t, counterparty, BANK_USD);
    const before = await balanceOf(t, account);

    // A slow log: every append waits 250 ms before the writer takes it.
    const store = t.app.get<EventStore>(EVENT_STORE);
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation(async (...args) => {
      await sleep(250);
      return append(...args);
    });

    const bodies = Array.from({ length: 24 }, (_, i) => transferBody(account, detail, { amount: 1_000, unique_reference: `burst-${i}` }));
    const started = Date.now();
    const answers = await Promise.all(
      bodies.map(async (body) => {
        const res = await t.http.post('/transfer').set(bearer(KEYS.sandbox)).send(body);
        return { res, ms: Date.now() - started, reference: body.unique_reference };
      }),
    );
    // Reads are not refused meanwhile.
    await t.http.get(`/accounts/${account}`).set(bearer(KEYS.sandbox)).expect(200);

    const admitted = answers.filter((a) => a.res.status === 201);
    const refused = answers.filter((a) => a.res.status === 503);
    expect(admitted.length + refused.length).toBe(bodies.length);
    expect(admitted.length).toBeGreaterThanOrEqual(4);
    expect(refused.length).toBeGreaterThanOrEqual(bodies.length / 2);
    for (const { res, ms } of refused) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({ status: 'error', code: 'overloaded', message: expect.any(String), errors: [] });
      // Answered before any admitted request could finish one append.
      expect(ms).toBeLessThan(250);
    }
    for (const { ms } of admitted) expect(ms).toBeGreaterThanOrEqual(250);

    jest.restoreAllMocks();
    await t.settle();
    const log = await store.readAll({ limit: 100_000 });
    const created = log
      .filter((e) => e.type === 'TransferCreated')
      .map((e) => (e.data as { transfer: { unique_reference: string } }).transfer?.unique_reference ?? (e.data as { unique_reference?: string }).unique_reference);
    expect(created.sort()).toEqual(admitted.map((a) => a.reference).sort());
    // Nothing of a refused request: no transfer stream of its reference, no hold.
    expect(new Set(log.filter((e) => e.streamId.startsWith('transfer-')).map((e) => e.streamId)).size).toBe(admitted.length);
    expect(log.filter((e) => e.streamId === `account-${account}` && e.type === 'FundsHeld')).toHaveLength(admitted.length);
    const after = await balanceOf(t, account);
    expect(before.available - after.available).toBe(admitted.length * (1_000 + 3));

    // The bound is free again: the next write is admitted.
    await t.http
      .post('/transfer')
      .set(bearer(KEYS.sandbox))
      .send(transferBody(account, detail, { amount: 1_000 }))
      .expect(201);
    expect((await t.http.get('/health').expect(200)).body.writes).toMatchObject({ in_flight: 0, refused: refused.length, limit: 4 });
  });
});
