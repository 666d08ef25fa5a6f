import { specFor } from '../../shared/testing/given-when-then';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import { accountDecider, type AccountCommand } from './account.decide';

const spec = specFor(accountDecider);
const ACC = 'acc_01J00000000000000000000000';
const ENT = 'ent_01J00000000000000000000000';
const T = 1_700_000_000_000;

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: { account_id: ACC, entity_id: ENT, mode: 'sandbox', type: 'checking', currency: 'USD', minor_units: 2, display_name: 'Ops', service_ban: newServiceBan(seededRandom(1)), opened: T },
};
const funded: AccountEvent = {
  type: 'AccountFunded',
  data: { account_id: ACC, entity_id: ENT, transaction_id: 'txn_1', amount: 1000, currency: 'USD', source: 'sandbox', balance_after: { available: 1000, current: 1000 }, funded: T },
};
const held: AccountEvent = { type: 'FundsHeld', data: { account_id: ACC, hold_id: 'trf_1', amount: 600, fee: 50, balance_after: { available: 350, current: 1000 }, held: T } };
const settled: AccountEvent = { type: 'HoldSettled', data: { account_id: ACC, hold_id: 'trf_1', total: 650, balance_after: { available: 350, current: 350 }, settled: T } };
const released: AccountEvent = { type: 'HoldReleased', data: { account_id: ACC, hold_id: 'trf_1', total: 650, balance_after: { available: 1000, current: 1000 }, released: T } };

const cmd = (type: 'PlaceHold' | 'SettleHold' | 'ReleaseHold' | 'ReverseSettledHold', now = T + 5): AccountCommand =>
  type === 'PlaceHold' ? { type, account_id: ACC, hold_id: 'trf_1', amount: 600, fee: 50, now } : { type, account_id: ACC, hold_id: 'trf_1', now };
const receive = (over: Partial<Extract<AccountCommand, { type: 'ReceiveBookTransfer' }>> = {}): AccountCommand => ({
  type: 'ReceiveBookTransfer',
  account_id: ACC,
  transfer_id: 'trf_9',
  from_account_id: 'acc_src',
  amount: 250,
  currency: 'USD',
  now: T + 7,
  ...over,
});

describe('account money commands keyed by transfer id', () => {
  describe('a settled hold', () => {
    const given = [opened, funded, held, settled];

    it('is credited back in full (amount + fee) by a reversal', () => {
      spec(given).when(cmd('ReverseSettledHold')).then([
        { type: 'HoldReversed', data: { account_id: ACC, hold_id: 'trf_1', total: 650, balance_after: { available: 1000, current: 1000 }, reversed: T + 5 } },
      ]);
    });

    it('is reversed only once', () => {
      const reversed: AccountEvent = { type: 'HoldReversed', data: { account_id: ACC, hold_id: 'trf_1', total: 650, balance_after: { available: 1000, current: 1000 }, reversed: T } };
      spec([...given, reversed]).when(cmd('ReverseSettledHold')).then([]);
    });

    it('is not held again when the hold is repeated (a retried creation)', () => spec(given).when(cmd('PlaceHold')).then([]));
  });

  describe('a released hold', () => {
    it('is not held again, and cannot be reversed', () => {
      spec([opened, funded, held, released]).when(cmd('PlaceHold')).then([]);
      spec([opened, funded, held, released]).when(cmd('ReverseSettledHold')).thenError('hold_not_settled', (e) => expect(e.kind).toBe('conflict'));
    });
  });

  describe('an open hold', () => {
    it('cannot be reversed before it is settled', () => spec([opened, funded, held]).when(cmd('ReverseSettledHold')).thenError('hold_not_settled'));
  });

  describe('an incoming book transfer', () => {
    it('credits both balances, with the balance after it', () => {
      spec([opened, funded, held]).when(receive()).then([
        {
          type: 'BookTransferReceived',
          data: { account_id: ACC, entity_id: ENT, transfer_id: 'trf_9', from_account_id: 'acc_src', amount: 250, currency: 'USD', balance_after: { available: 600, current: 1250 }, received: T + 7 },
        },
      ]);
    });

    it('is credited once per sending transfer', () => {
      const events = accountDecider.decide(receive(), [opened, funded].reduce(accountDecider.evolve, accountDecider.initialState)) as AccountEvent[];
      spec([opened, funded, ...events]).when(receive()).then([]);
    });

    it('refuses another currency', () => spec([opened]).when(receive({ currency: 'EUR' })).thenError('currency_mismatch'));
  });

  it('refuses a hold whose total is not a safe integer as insufficient funds', () => {
    spec([opened, funded]).when({ type: 'PlaceHold', account_id: ACC, hold_id: 'trf_2', amount: Number.MAX_SAFE_INTEGER, fee: 10, now: T }).thenError('insufficient_funds');
  });
});
