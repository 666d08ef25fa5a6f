import { accountDecider, openHold, type AccountEvent, type AccountState } from '@app/domain/accounts';
import { estimateBytes } from '@app/platform/folds/fold-cache';
import { decodeState, encodeState } from './state-codec';

const ACC = 'acc_01J00000000000000000000000';
const balance = { available: 0, current: 0 };
const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    account_id: ACC,
    entity_id: 'ent_1',
    mode: 'live',
    type: 'checking',
    currency: 'USD',
    minor_units: 2,
    display_name: 'A',
    service_ban: 'x',
    opened: 1,
  },
};
const funded: AccountEvent = {
  type: 'AccountFunded',
  data: {
    account_id: ACC,
    entity_id: 'ent_1',
    transaction_id: 'txn_1',
    amount: 1e12,
    currency: 'USD',
    source: 'inflow',
    balance_after: balance,
    funded: 1,
  },
};
const payout = (i: number): AccountEvent => {
  const id = `trf_${i}`;
  const transfer = {
    id,
    account_id: ACC,
    payment_type: 'bank-transfer',
    currency: 'USD',
    amount: 100 + i,
    fee: 1,
    unique_reference: `ref-${i}`,
  };
  return {
    type: 'FundsHeld',
    data: { account_id: ACC, hold_id: id, amount: 100 + i, fee: 1, transfer, balance_after: balance, held: 2 },
  };
};
const cardHold = (i: number): AccountEvent => ({
  type: 'FundsHeld',
  data: { account_id: ACC, hold_id: `ctxn_${i}`, amount: 7, fee: 0, balance_after: balance, held: 2 },
});
const settle = (i: number): AccountEvent => ({
  type: 'HoldSettled',
  data: { account_id: ACC, hold_id: `trf_${i}`, total: 101 + i, balance_after: balance, settled: 3 },
});

/**
 * Issue 26: an account with many open holds snapshots without recursion, in a number of rows that
 * does not grow with its holds (a small node is written in place), and reads back as a state that
 * folds on exactly as the original.
 */
describe('an account snapshot with 20,000 open holds', () => {
  const OPEN = 20_000;
  const events = [opened, funded, ...Array.from({ length: OPEN }, (_, i) => (i % 4 === 0 ? cardHold(i) : payout(i)))];
  const state = events.reduce(accountDecider.evolve, accountDecider.initialState);

  it('reads back equal, and folds on as the original does', () => {
    const decoded = decodeState(encodeState(state)) as AccountState;
    expect(decoded).toEqual(state);
    const after = [settle(1), settle(2), payout(OPEN + 1)];
    expect(after.reduce(accountDecider.evolve, decoded)).toEqual(after.reduce(accountDecider.evolve, state));
    if (decoded.status !== 'open') throw new Error('not open');
    expect(openHold(decoded, 'trf_5')).toEqual({
      total: 106,
      transfer: expect.objectContaining({ unique_reference: 'ref-5' }),
    });
    expect(openHold(decoded, 'ctxn_4')).toEqual({ total: 7 });
  });

  it('is a few hundred rows, not one per hold, and its estimate is about its JSON length', () => {
    const text = encodeState(state);
    const rows = (JSON.parse(text) as { rows: unknown[] }).rows.length;
    expect(rows).toBeLessThan(OPEN / 10);
    const json = JSON.stringify(state).length;
    expect(estimateBytes(state)).toBeGreaterThan(json / 2);
    expect(estimateBytes(state)).toBeLessThan(json * 2);
  });
});
