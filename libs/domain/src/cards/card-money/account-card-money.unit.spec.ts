import { specFor } from '../../shared/testing/given-when-then';
import type { AccountEvent } from '../../accounts/account';
import { accountCardMoneyDecider, captureHoldId, type CardMoneyCommand } from './account-card-money';
import { openHolds } from '../../accounts/testing/open-holds';

const spec = specFor(accountCardMoneyDecider);
const ACC = 'acc_01J00000000000000000000000';
const T = 1_700_000_000_000;

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    account_id: ACC,
    entity_id: 'ent_1',
    mode: 'sandbox',
    type: 'checking',
    currency: 'USD',
    minor_units: 2,
    display_name: 'Ops',
    service_ban: '1234567897',
    opened: T,
  },
};
const funded: AccountEvent = {
  type: 'AccountFunded',
  data: {
    account_id: ACC,
    entity_id: 'ent_1',
    transaction_id: 'txn_1',
    amount: 1000,
    currency: 'USD',
    source: 'sandbox',
    balance_after: { available: 1000, current: 1000 },
    funded: T,
  },
};
const held: AccountEvent = {
  type: 'FundsHeld',
  data: {
    account_id: ACC,
    hold_id: 'ctxn_1',
    amount: 400,
    fee: 0,
    balance_after: { available: 600, current: 1000 },
    held: T,
  },
};
const hold = (origin_done: boolean): CardMoneyCommand => ({
  type: 'PlaceCardHold',
  account_id: ACC,
  hold_id: 'ctxn_1',
  amount: 400,
  origin_done,
  now: T + 1,
});
const capture = (amount: number): CardMoneyCommand => ({
  type: 'CaptureCardHold',
  account_id: ACC,
  hold_id: 'ctxn_1',
  amount,
  now: T + 2,
});

describe('card money on the account stream, with closed holds gone from the state', () => {
  const partly = accountCardMoneyDecider.decide(
    capture(150),
    [opened, funded, held].reduce(accountCardMoneyDecider.evolve, accountCardMoneyDecider.initialState),
  ) as AccountEvent[];

  it('a partial capture releases the authorization hold and debits the captured part under its own id', () => {
    expect(partly.map((e) => [e.type, (e.data as { hold_id: string }).hold_id])).toEqual([
      ['HoldReleased', 'ctxn_1'],
      ['FundsHeld', captureHoldId('ctxn_1')],
      ['HoldSettled', captureHoldId('ctxn_1')],
    ]);
    spec([opened, funded, held, ...partly])
      .when(hold(true))
      .thenState((s) => expect([openHolds(s), s]).toMatchObject([{}, { held: 0, current: 850 }]));
  });

  it('once captured, a repeated capture finds no open hold and a repeated hold is stopped by the card transaction being finished', () => {
    spec([opened, funded, held, ...partly])
      .when(capture(150))
      .then([]);
    spec([opened, funded, held, ...partly])
      .when(hold(true))
      .then([]);
  });

  it('holds while the card transaction is pending, once', () => {
    spec([opened, funded])
      .when(hold(false))
      .thenState((s) => expect([openHolds(s), s]).toMatchObject([{ ctxn_1: 400 }, { held: 400 }]));
    spec([opened, funded, held]).when(hold(false)).then([]);
  });
});
