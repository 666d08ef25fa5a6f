import { startTestApp, type TestApp } from '../support/test-app';
import { authorize, details, holder, MERCHANT, pinClock, virtualCard } from './helpers';

const DAY = 86_400_000;
/** Tuesday 15 January 2030, 10:00 UTC. */
const TUESDAY = Date.UTC(2030, 0, 15, 10);

describe('card controls: exactly at a limit passes, one unit over declines; resets on the boundary', () => {
  let t: TestApp;
  let setClock: (at: number) => void;
  beforeAll(async () => {
    t = await startTestApp();
    setClock = pinClock(t, TUESDAY);
  });
  beforeEach(() => setClock(TUESDAY));
  afterAll(() => t.close());

  const cardWith = async (controls: Record<string, unknown>, amount = 1_000_000) =>
    (await virtualCard(t, (await holder(t)).account, { amount, ...controls })).id;
  const spend = async (card: string, amount: number, mcc = MERCHANT.mcc, extra: Record<string, unknown> = {}) => {
    const res = await authorize(t, card, { amount, merchant: { ...MERCHANT, mcc }, ...extra }).expect(201);
    return res.body.data as { id: string; status: string; status_reason: string | null };
  };
  const approved = async (card: string, amount: number, mcc?: string) =>
    expect(await spend(card, amount, mcc)).toMatchObject({ status: 'successful', status_reason: null });
  const declined = async (card: string, amount: number, reason: string, mcc?: string) =>
    expect(await spend(card, amount, mcc)).toMatchObject({ status: 'declined', status_reason: reason });

  it('transaction_amount_limit', async () => {
    const card = await cardWith({ individual_controls: { transaction_amount_limit: 1_000 } });
    await approved(card, 1_000);
    await declined(card, 1_001, 'limit_exceeded');
    await approved(card, 1_000);
  });

  it('daily_amount_limit, its usage fields, and the reset at 00:00 UTC', async () => {
    const card = await cardWith({ individual_controls: { daily_amount_limit: 3_000 } });
    await approved(card, 2_000);
    await approved(card, 1_000);
    await declined(card, 1, 'limit_exceeded');
    expect((await details(t, card)).body.data).toMatchObject({
      daily_amount_limit_used: 3_000,
      daily_amount_limit_hold: 0,
      daily_amount_limit_balance: 0,
    });
    setClock(Date.UTC(2030, 0, 15, 23, 59, 59, 999));
    await declined(card, 1, 'limit_exceeded');
    setClock(Date.UTC(2030, 0, 16));
    expect((await details(t, card)).body.data).toMatchObject({
      daily_amount_limit_used: 0,
      daily_amount_limit_balance: 3_000,
    });
    await approved(card, 3_000);
    await declined(card, 1, 'limit_exceeded');
  });

  it('daily_transaction_count resets the next day', async () => {
    const card = await cardWith({ individual_controls: { daily_transaction_count: 2 } });
    await approved(card, 10);
    await approved(card, 10);
    await declined(card, 10, 'limit_exceeded');
    expect((await details(t, card)).body.data).toMatchObject({
      daily_transaction_count_used: 2,
      daily_transaction_count_balance: 0,
    });
    setClock(TUESDAY + DAY);
    await approved(card, 10);
  });

  it('cycle_transaction_count over a weekly cycle starting Monday', async () => {
    const card = await cardWith({
      individual_controls: { billing_cycle: 'Weekly', billing_cycle_day: 'Monday', cycle_transaction_count: 3 },
    });
    await approved(card, 10);
    setClock(TUESDAY + DAY);
    await approved(card, 10);
    setClock(Date.UTC(2030, 0, 20, 23, 59)); // Sunday, same cycle
    await approved(card, 10);
    await declined(card, 10, 'limit_exceeded');
    expect((await details(t, card)).body.data).toMatchObject({
      cycle_transaction_count_used: 3,
      cycle_transaction_count_balance: 0,
    });
    setClock(Date.UTC(2030, 0, 21)); // Monday 00:00: a new cycle
    expect((await details(t, card)).body.data).toMatchObject({
      cycle_transaction_count_used: 0,
      cycle_transaction_count_balance: 3,
    });
    await approved(card, 10);
  });

  it("the card's amount is its spend limit per cycle (monthly from the 15th)", async () => {
    const card = await cardWith({ individual_controls: { billing_cycle: 'Monthly', billing_cycle_day: '15' } }, 5_000);
    await approved(card, 4_000);
    await declined(card, 1_001, 'limit_exceeded');
    await approved(card, 1_000);
    expect((await details(t, card)).body.data).toMatchObject({ amount_used: 5_000, amount_hold: 0, amount_balance: 0 });
    setClock(Date.UTC(2030, 1, 14, 23, 59));
    await declined(card, 1, 'limit_exceeded');
    setClock(Date.UTC(2030, 1, 15));
    await approved(card, 5_000);
  });

  it('MCC controls: closed blocks, and each limit applies to its MCC only', async () => {
    const card = await cardWith({
      individual_mcc_controls: [
        { mcc: '5942', open: false },
        { mcc: '5812', daily_amount_limit: 1_000, transaction_amount_limit: 800 },
        { mcc: '5999', cumulative_amount_limit: 1_500, daily_transaction_count: 5 },
        { mcc: '5411', cycle_transaction_count: 1, daily_transaction_count: 1 },
      ],
    });
    await declined(card, 1, 'mcc_blocked', '5942');
    await approved(card, 800, '5812');
    await declined(card, 801, 'limit_exceeded', '5812');
    await approved(card, 200, '5812');
    await declined(card, 1, 'limit_exceeded', '5812');
    await approved(card, 5_000, '5311');
    await approved(card, 1_500, '5999');
    await declined(card, 1, 'limit_exceeded', '5999');
    await approved(card, 1, '5411');
    await declined(card, 1, 'limit_exceeded', '5411');
    const body = (await details(t, card)).body.data;
    expect(body.individual_mcc_controls[1]).toMatchObject({
      mcc: '5812',
      open: true,
      daily_amount_limit: 1_000,
      daily_amount_limit_used: 1_000,
      daily_amount_limit_balance: 0,
    });
    expect(body.individual_mcc_controls[2]).toMatchObject({
      cumulative_amount_used: 1_500,
      cumulative_amount_balance: 0,
      daily_transaction_count_used: 1,
      daily_transaction_count_balance: 4,
    });
    // Cumulative never resets; the daily limit does.
    setClock(Date.UTC(2031, 5, 1));
    await declined(card, 1, 'limit_exceeded', '5999');
    await approved(card, 800, '5812');
  });

  it('MCC group controls: a closed group blocks its MCCs, group limits count every MCC of the group', async () => {
    const card = await cardWith({
      mcc_group_controls: [
        { group_name: 'gambling', open: false },
        { group_name: 'restaurants', transaction_amount_limit: 500, daily_amount_limit: 900 },
        { group_name: 'airlines', daily_transaction_count: 1 },
      ],
    });
    await declined(card, 1, 'mcc_blocked', '7995');
    await approved(card, 500, '5812');
    await declined(card, 501, 'limit_exceeded', '5814');
    await approved(card, 400, '5814');
    await declined(card, 1, 'limit_exceeded', '5813');
    await approved(card, 1, '3001');
    await declined(card, 1, 'limit_exceeded', '4511');
    await approved(card, 10_000, '5311');
    const groups = (await details(t, card)).body.data.mcc_group_controls;
    expect(groups[1]).toMatchObject({
      group_name: 'restaurants',
      daily_amount_limit_used: 900,
      daily_amount_limit_balance: 0,
    });
    expect(groups[2]).toMatchObject({
      group_name: 'airlines',
      daily_transaction_count_used: 1,
      daily_transaction_count_balance: 0,
    });
  });

  it('pending authorizations count as holds: balance = limit − used − hold for every field', async () => {
    const card = await cardWith(
      { individual_controls: { daily_amount_limit: 10_000, daily_transaction_count: 5, cycle_transaction_count: 9 } },
      50_000,
    );
    await approved(card, 1_000);
    expect(await spend(card, 2_500, undefined, { capture: false })).toMatchObject({ status: 'pending' });
    const d = (await details(t, card)).body.data;
    expect(d).toMatchObject({
      amount_used: 1_000,
      amount_hold: 2_500,
      daily_amount_limit_used: 1_000,
      daily_amount_limit_hold: 2_500,
      daily_transaction_count_used: 1,
      daily_transaction_count_hold: 1,
      cycle_transaction_count_hold: 1,
    });
    for (const [prefix, limit] of [
      ['amount', 50_000],
      ['daily_amount_limit', 10_000],
      ['daily_transaction_count', 5],
      ['cycle_transaction_count', 9],
    ] as const) {
      expect(d[`${prefix}_balance`]).toBe(limit - d[`${prefix}_used`] - d[`${prefix}_hold`]);
    }
    // The hold counts against the limit: 10_000 − 1_000 − 2_500 = 6_500 remain.
    await declined(card, 6_501, 'limit_exceeded');
    await approved(card, 6_500);
  });
});
