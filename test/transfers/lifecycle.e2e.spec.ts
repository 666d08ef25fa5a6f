import { RAIL_STEP_MS } from '@app/application/transfers/transfer-rails.process-manager';
import { transferStream } from '@app/application/transfers/streams';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import {
  BANK_USD,
  advance,
  balanceOf,
  eventually,
  paymentDetail,
  payer,
  post,
  statement,
  transferBody,
} from './helpers';

describe('transfers: lifecycle moves and the money that follows them', () => {
  let t: TestApp;
  let p: Awaited<ReturnType<typeof payer>>;
  let bank: string;
  beforeAll(async () => {
    t = await startTestApp();
    p = await payer(t, 'USD', 100_000);
    bank = await paymentDetail(t, p.counterparty, BANK_USD);
  });
  afterAll(() => t.close());

  const create = async (amount: number) =>
    (await post(t, transferBody(p.account, bank, { amount })).expect(201)).body as { id: string; fee: number };
  const settledBalance = async (expected: { available: number; current: number }) =>
    eventually(
      () => balanceOf(t, p.account),
      (b) => b.available === expected.available && b.current === expected.current,
      JSON.stringify(expected),
    );

  it('pending → processing → successful debits current by amount + fee and drops the hold', async () => {
    const start = await balanceOf(t, p.account);
    const tr = await create(10_000);
    const processing = await advance(t, tr.id, { to: 'processing' }).expect(200);
    expect(processing.body).toMatchObject({ id: tr.id, status: 'processing', status_reason: null });
    const done = await advance(t, tr.id, { to: 'successful' }).expect(200);
    expect(done.body.status).toBe('successful');
    await settledBalance({ available: start.available - 10_025, current: start.current - 10_025 });
  });

  it('processing → failed releases the hold, with the reason given', async () => {
    const start = await balanceOf(t, p.account);
    const tr = await create(4_000);
    await advance(t, tr.id, { to: 'processing' }).expect(200);
    const failed = await advance(t, tr.id, { to: 'failed', status_reason: 'invalid_account_details' }).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', status_reason: 'invalid_account_details' });
    await settledBalance(start);
  });

  it('pending → failed (refused before execution) releases the hold; the reason defaults to processing_error', async () => {
    const start = await balanceOf(t, p.account);
    const tr = await create(3_000);
    const failed = await advance(t, tr.id, { to: 'failed' }).expect(200);
    expect(failed.body.status_reason).toBe('processing_error');
    await settledBalance(start);
  });

  it('successful → reversed credits amount + fee back', async () => {
    const start = await balanceOf(t, p.account);
    const tr = await create(2_000);
    await advance(t, tr.id, { to: 'processing' }).expect(200);
    await advance(t, tr.id, { to: 'successful' }).expect(200);
    const reversed = await advance(t, tr.id, { to: 'reversed', status_reason: 'returned_by_bank' }).expect(200);
    expect(reversed.body).toMatchObject({ status: 'reversed', status_reason: 'returned_by_bank' });
    await settledBalance(start);
    const entries = (await statement(t, p.account)).filter((e) => e.transfer_id === tr.id);
    expect(entries.map((e) => [e.type, e.amount])).toEqual([
      ['hold', 2_005],
      ['debit', 2_005],
      ['reversal', 2_005],
    ]);
  });

  it.each([
    [[], ['successful', 'reversed']],
    [['processing'], ['processing', 'reversed']],
    [
      ['processing', 'successful'],
      ['processing', 'successful', 'failed'],
    ],
    [['failed'], ['processing', 'successful', 'failed', 'reversed']],
    [
      ['processing', 'successful', 'reversed'],
      ['processing', 'successful', 'failed', 'reversed'],
    ],
  ])('after %p refuses %p with 409 invalid_transition and changes nothing', async (path, refused) => {
    const tr = await create(100);
    for (const to of path) await advance(t, tr.id, { to }).expect(200);
    const before = await t.http.get(`/transfers/${tr.id}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox)).expect(200);
    for (const to of refused) {
      const res = await advance(t, tr.id, { to }).expect(409);
      expect(res.body).toMatchObject({
        status: 'error',
        code: 'invalid_transition',
        current_status: before.body.status,
      });
    }
    expect((await t.http.get(`/transfers/${tr.id}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox))).body).toEqual(
      before.body,
    );
  });

  it('validates the advance body (400), needs a sandbox key (403), and answers 404 for unknown or foreign ids', async () => {
    const tr = await create(100);
    await advance(t, tr.id, { to: 'done' }).expect(400);
    await advance(t, tr.id, { to: 'failed', status_reason: 'Not Snake' }).expect(400);
    await advance(t, tr.id, { to: 'processing' }, KEYS.live).expect(403);
    await advance(t, 'trf_01ARZ3NDEKTSV4RRFFQ69G5FAV', { to: 'processing' }).expect(404);
    await advance(t, tr.id, { to: 'processing' }, KEYS.other).expect(404);
  });

  it('statement and balance agree after every move', async () => {
    const entries = await statement(t, p.account);
    const last = entries[entries.length - 1].balance_after;
    expect(await balanceOf(t, p.account)).toEqual(last);
    let current = 0;
    let held = 0;
    for (const e of entries) {
      if (e.type === 'credit' || e.type === 'reversal') current += e.amount;
      if (e.type === 'debit') current -= e.amount;
      if (e.type === 'hold') held += e.amount;
      if (e.type === 'debit' || e.type === 'release') held -= e.amount;
      expect(e.balance_after).toEqual({ current, available: current - held });
    }
  });
});

describe('transfers: the simulated network (SANDBOX_AUTO_ADVANCE=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SANDBOX_AUTO_ADVANCE: 'true' });
    // The app's clock stands still unless the test moves it: each network step runs when the test
    // moves the clock past it (the rails sleep on the app's clock), not after 800 ms of waiting.
    t.clock.set(t.clock.now());
  });
  afterAll(() => t.close());

  it('moves a transfer pending → processing → successful by itself and debits the account', async () => {
    const p = await payer(t, 'USD', 50_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const tr = (await post(t, transferBody(p.account, bank, { amount: 10_000 })).expect(201)).body;
    const reaches = async (status: string) => {
      // Each step is due RAIL_STEP_MS after the one before it, as the clock reads.
      t.clock.advance(RAIL_STEP_MS);
      const read = async () =>
        (await t.http.get(`/transfers/${tr.id}?entity_id=${p.entity}`).set(bearer(KEYS.sandbox))).body;
      return eventually(read, (x) => x.status === status, status);
    };
    expect((await reaches('processing')).updated).toBe(tr.created + RAIL_STEP_MS);
    expect((await reaches('successful')).updated).toBe(tr.created + 2 * RAIL_STEP_MS);
    const moves = await t.app.get<EventStore>(EVENT_STORE).readStream(transferStream(tr.id));
    expect(moves.map((e) => [e.type, e.metadata.actor])).toEqual([
      ['TransferCreated', expect.stringMatching(/^api_key:/)],
      ['TransferProcessing', 'system:transfer-rails'],
      ['TransferSucceeded', 'system:transfer-rails'],
    ]);
    await eventually(
      () => balanceOf(t, p.account),
      (b) => b.current === 39_975,
      'debited',
    );
    expect(await balanceOf(t, p.account)).toEqual({ available: 39_975, current: 39_975 });
    await t.settle();
    const events = (await t.http.get(`/transfers?entity_id=${p.entity}&status=successful`).set(bearer(KEYS.sandbox)))
      .body.data;
    expect(events.map((x: { id: string }) => x.id)).toEqual([tr.id]);
  });
});
