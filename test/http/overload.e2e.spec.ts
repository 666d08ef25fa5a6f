import type { Response } from 'supertest';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { LoopDelay } from '../../apps/api/src/http/overload/loop-delay';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { BANK_USD, balanceOf, payer, paymentDetail, transferBody } from '../transfers/helpers';

/** The unique references of the transfers the log holds. */
const createdReferences = (log: readonly { type: string; data: unknown }[]) =>
  log
    .filter((e) => e.type === 'TransferCreated')
    .map(
      (e) =>
        (e.data as { transfer: { unique_reference: string } }).transfer?.unique_reference ??
        (e.data as { unique_reference?: string }).unique_reference,
    );

/**
 * Backpressure (issue 20): past MAX_INFLIGHT_WRITES write requests at once, the API answers 503
 * `overloaded` with Retry-After at once, before doing anything, instead of queueing the request
 * behind a slow writer; what it admitted completes whole. And (issue 28) while its event loop is
 * saturated (mean delay past MAX_EVENT_LOOP_DELAY_MS), whatever is in flight.
 */
describe('an overloaded API answers fast and writes nothing for what it refuses', () => {
  let t: TestApp;
  afterEach(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  it('refuses a burst past the bound at once with 503 overloaded and Retry-After; admitted transfers complete, refused ones leave nothing', async () => {
    t = await startTestApp({
      MAX_INFLIGHT_WRITES: '4',
      PAYMENTS_ADMIN_TOKEN: 'operator-token-overload-0123456789abcdef',
    });
    const { account, counterparty } = await payer(t, 'USD', 1_000_000);
    const detail = await paymentDetail(t, counterparty, BANK_USD);
    const before = await balanceOf(t, account);

    // A stuck log: no append goes through until the test opens the gate, so what is admitted stays
    // in flight, and every answer that arrives meanwhile was given before any append completed.
    const store = t.app.get<EventStore>(EVENT_STORE);
    const append = store.append.bind(store);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let appended = 0;
    jest.spyOn(store, 'append').mockImplementation(async (...args) => {
      await gate;
      const result = await append(...args);
      appended++;
      return result;
    });

    const bodies = Array.from({ length: 24 }, (_, i) =>
      transferBody(account, detail, { amount: 1_000, unique_reference: `burst-${i}` }),
    );
    const answers: { res: Response; reference: string; appendedBefore: number }[] = [];
    const all = Promise.all(
      bodies.map(async (body) => {
        const res = await t.http.post('/transfer').set(bearer(KEYS.sandbox)).send(body);
        answers.push({ res, reference: body.unique_reference, appendedBefore: appended });
      }),
    );
    // The four admitted hold the bound while the log is stuck: the other twenty are refused without waiting for it.
    await waitFor(
      () => answers.length,
      (n) => n >= bodies.length - 4,
      'the requests past the bound to be refused while the log is stuck',
    );
    expect(answers.map((a) => a.res.status)).toEqual(Array(bodies.length - 4).fill(503));
    // Reads are not refused meanwhile.
    await t.http.get(`/accounts/${account}`).set(bearer(KEYS.sandbox)).expect(200);
    open();
    await all;

    const admitted = answers.filter((a) => a.res.status === 201);
    const refused = answers.filter((a) => a.res.status === 503);
    expect(admitted.length).toBe(4);
    expect(refused.length).toBe(bodies.length - 4);
    for (const { res, appendedBefore } of refused) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({ status: 'error', code: 'overloaded', message: expect.any(String), errors: [] });
      // Answered before any admitted request could finish one append.
      expect(appendedBefore).toBe(0);
    }
    for (const { appendedBefore } of admitted) expect(appendedBefore).toBeGreaterThan(0);

    jest.restoreAllMocks();
    await t.settle();
    const log = await store.readAll({ limit: 100_000 });
    expect(createdReferences(log).sort()).toEqual(admitted.map((a) => a.reference).sort());
    // Nothing of a refused request: no transfer stream of its reference, no hold.
    expect(new Set(log.filter((e) => e.streamId.startsWith('transfer-')).map((e) => e.streamId)).size).toBe(
      admitted.length,
    );
    expect(log.filter((e) => e.streamId === `account-${account}` && e.type === 'FundsHeld')).toHaveLength(
      admitted.length,
    );
    const after = await balanceOf(t, account);
    expect(before.available - after.available).toBe(admitted.length * (1_000 + 3));

    // The bound is free again: the next write is admitted.
    await t.http
      .post('/transfer')
      .set(bearer(KEYS.sandbox))
      .send(transferBody(account, detail, { amount: 1_000 }))
      .expect(201);
    expect(
      (await t.http.get('/health').set(bearer('operator-token-overload-0123456789abcdef')).expect(200)).body.writes,
    ).toMatchObject({ in_flight: 0, refused: refused.length, limit: 4 });
  });

  it('refuses writes while the event loop is saturated, having written nothing, answers reads meanwhile, and takes writes again once the loop is free', async () => {
    const operator = 'operator-token-overload-0123456789abcdef';
    t = await startTestApp({ MAX_EVENT_LOOP_DELAY_MS: '20', PAYMENTS_ADMIN_TOKEN: operator });
    const { account, counterparty } = await payer(t, 'USD', 1_000_000);
    const detail = await paymentDetail(t, counterparty, BANK_USD);
    const before = await balanceOf(t, account);
    const loop = t.app.get(LoopDelay);
    const free = () =>
      waitFor(
        () => loop.saturated,
        (saturated) => !saturated,
        'the event loop delay to fall back under MAX_EVENT_LOOP_DELAY_MS',
      );
    // The setup's own work may have made the loop late on a busy machine.
    await free();

    // A busy section: every turn of the loop runs 100 ms of synchronous work (as a burst of CPU-bound
    // requests would), so each of its timers fires that late, however fast the machine is.
    let busy = true;
    const spin = () => {
      if (!busy) return;
      const until = Date.now() + 100;
      while (Date.now() < until);
      setImmediate(spin);
    };
    const refused = 'saturated-loop';
    let answer: Response;
    try {
      spin();
      await waitFor(
        () => loop.saturated,
        (saturated) => saturated,
        'the event loop delay to pass MAX_EVENT_LOOP_DELAY_MS',
      );
      answer = await t.http
        .post('/transfer')
        .set(bearer(KEYS.sandbox))
        .send(transferBody(account, detail, { amount: 1_000, unique_reference: refused }));
      // Reads are not refused meanwhile.
      await t.http.get(`/accounts/${account}`).set(bearer(KEYS.sandbox)).expect(200);
    } finally {
      busy = false;
    }
    expect({ status: answer.status, retryAfter: answer.headers['retry-after'], body: answer.body }).toEqual({
      status: 503,
      retryAfter: '1',
      body: { status: 'error', code: 'overloaded', message: expect.any(String), errors: [] },
    });

    // Free again: the next window's reading falls back under the bound, and writes are taken.
    await free();
    await t.http
      .post('/transfer')
      .set(bearer(KEYS.sandbox))
      .send(transferBody(account, detail, { amount: 1_000, unique_reference: 'free-loop' }))
      .expect(201);

    await t.settle();
    expect(createdReferences(await t.app.get<EventStore>(EVENT_STORE).readAll({ limit: 100_000 }))).toEqual([
      'free-loop',
    ]);
    const after = await balanceOf(t, account);
    expect(before.available - after.available).toBe(1_000 + 3);
    expect((await t.http.get('/health').set(bearer(operator)).expect(200)).body.writes).toMatchObject({
      in_flight: 0,
      refused: 1,
    });
  });
});
