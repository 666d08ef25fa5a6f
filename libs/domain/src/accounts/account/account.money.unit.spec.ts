import { specFor } from '../../shared/testing/given-when-then';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import { openHolds } from '../testing/open-holds';
import { heldTransferFor } from './account';
import { accountDecider, type AccountCommand } from './account.decide';
import { bookTransferReceivedIn } from './account.money';

const spec = specFor(accountDecider);
const ACC = 'acc_01J00000000000000000000000';
const ENT = 'ent_01J00000000000000000000000';
const T = 1_700_000_000_000;

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    account_id: ACC,
    entity_id: ENT,
    mode: 'sandbox',
    type: 'checking',
    currency: 'USD',
    minor_units: 2,
    display_name: 'Ops',
    service_ban: newServiceBan(seededRandom(1)),
    opened: T,
  },
};
const funded: AccountEvent = {
  type: 'AccountFunded',
  data: {
    account_id: ACC,
    entity_id: ENT,
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
    hold_id: 'trf_1',
    amount: 600,
    fee: 50,
    balance_after: { available: 350, current: 1000 },
    held: T,
  },
};
const settled: AccountEvent = {
  type: 'HoldSettled',
  data: { account_id: ACC, hold_id: 'trf_1', total: 650, balance_after: { available: 350, current: 350 }, settled: T },
};
const released: AccountEvent = {
  type: 'HoldReleased',
  data: {
    account_id: ACC,
    hold_id: 'trf_1',
    total: 650,
    balance_after: { available: 1000, current: 1000 },
    released: T,
  },
};

const hold = (origin_done = false, now = T + 5): AccountCommand => ({
  type: 'PlaceHold',
  account_id: ACC,
  hold_id: 'trf_1',
  amount: 600,
  fee: 50,
  origin_done,
  now,
});
const close = (type: 'SettleHold' | 'ReleaseHold', now = T + 5): AccountCommand => ({
  type,
  account_id: ACC,
  hold_id: 'trf_1',
  now,
});
/**
 * A reversal as its caller builds it: the total from the transfer, and whether the log since the
 * reversal was decided (here: the given events) already holds its credit.
 */
const reverse = (given: readonly AccountEvent[], now = T + 5): AccountCommand => ({
  type: 'ReverseSettledHold',
  account_id: ACC,
  hold_id: 'trf_1',
  total: 650,
  already_reversed: given.some((e) => e.type === 'HoldReversed' && e.data.hold_id === 'trf_1'),
  now,
});
const receive = (over: Partial<Extract<AccountCommand, { type: 'ReceiveBookTransfer' }>> = {}): AccountCommand => ({
  type: 'ReceiveBookTransfer',
  account_id: ACC,
  transfer_id: 'trf_9',
  from_account_id: 'acc_src',
  amount: 250,
  currency: 'USD',
  already_received: false,
  now: T + 7,
  ...over,
});

describe('account money commands keyed by transfer id', () => {
  const reversed: AccountEvent = {
    type: 'HoldReversed',
    data: {
      account_id: ACC,
      hold_id: 'trf_1',
      total: 650,
      balance_after: { available: 1000, current: 1000 },
      reversed: T,
    },
  };

  describe('a settled hold', () => {
    const given = [opened, funded, held, settled];

    it('is credited back in full (amount + fee) by a reversal', () => {
      spec(given)
        .when(reverse(given))
        .then([
          {
            type: 'HoldReversed',
            data: {
              account_id: ACC,
              hold_id: 'trf_1',
              total: 650,
              balance_after: { available: 1000, current: 1000 },
              reversed: T + 5,
            },
          },
        ]);
    });

    it('is reversed only once', () =>
      spec([...given, reversed])
        .when(reverse([...given, reversed]))
        .then([]));

    it('is not held again when the hold is repeated (a retried creation): its origin has moved on', () =>
      spec(given).when(hold(true)).then([]));

    it('has left the state: only the origin tells a repeated hold from a new one', () => {
      const refunded: AccountEvent = {
        type: 'AccountFunded',
        data: { ...funded.data, transaction_id: 'txn_2', balance_after: { available: 1350, current: 1350 } },
      } as AccountEvent;
      spec([...given, refunded])
        .when(hold(false))
        .thenState((s) => expect([openHolds(s), s]).toMatchObject([{ trf_1: 650 }, { held: 650 }]));
    });

    it('is not settled or released twice', () => {
      spec(given).when(close('SettleHold')).then([]);
      spec(given).when(close('ReleaseHold')).then([]);
    });
  });

  describe('a released hold', () => {
    const given = [opened, funded, held, released];

    // Only a successful transfer can be reversed: its lifecycle (transfer.decide) refuses a failed one.
    it('is not held again once its origin moved on', () => spec(given).when(hold(true)).then([]));
  });

  describe('an open hold', () => {
    it('is not held twice, whatever its origin says', () => {
      spec([opened, funded, held]).when(hold(false)).then([]);
      spec([opened, funded, held]).when(hold(true)).then([]);
    });

    it('cannot be reversed before it is settled', () =>
      spec([opened, funded, held])
        .when(reverse([opened, funded, held]))
        .thenError('hold_not_settled'));
  });

  describe('closed holds leave the state', () => {
    const cycle = (i: number): AccountEvent[] => {
      const id = `trf_${i}`;
      const after = { available: 1000, current: 1000 };
      const heldI: AccountEvent = {
        type: 'FundsHeld',
        data: {
          account_id: ACC,
          hold_id: id,
          amount: 600,
          fee: 50,
          balance_after: { available: 350, current: 1000 },
          held: T + i,
        },
      };
      if (i % 3 === 0)
        return [
          heldI,
          {
            type: 'HoldReleased',
            data: { account_id: ACC, hold_id: id, total: 650, balance_after: after, released: T + i },
          },
        ];
      const settledI: AccountEvent = {
        type: 'HoldSettled',
        data: {
          account_id: ACC,
          hold_id: id,
          total: 650,
          balance_after: { available: 350, current: 350 },
          settled: T + i,
        },
      };
      if (i % 3 === 1)
        return [
          heldI,
          settledI,
          {
            type: 'AccountFunded',
            data: { ...funded.data, transaction_id: `txn_${i}`, amount: 650, balance_after: after, funded: T + i },
          } as AccountEvent,
        ];
      return [
        heldI,
        settledI,
        {
          type: 'HoldReversed',
          data: { account_id: ACC, hold_id: id, total: 650, balance_after: after, reversed: T + i },
        },
      ];
    };
    /** Every hold placed and then settled, released, or settled and reversed, in turn. */
    const after = (cycles: number) =>
      [opened, funded, ...Array.from({ length: cycles }, (_, i) => cycle(i)).flat()].reduce(
        accountDecider.evolve,
        accountDecider.initialState,
      );
    /** The state with every number set to 0: what is left is its shape, which must not depend on history. */
    const shape = (state: unknown) =>
      JSON.stringify(state, (_key, value: unknown) => (typeof value === 'number' ? 0 : value));

    it('after 3 or 600 cycles of place then settle, release, or settle and reverse: no open hold, same shape, same size', () => {
      const few = after(3);
      const many = after(600);
      expect([openHolds(many), many]).toMatchObject([{}, { held: 0, current: 1000 }]);
      expect([openHolds(few), few]).toMatchObject([{}, { held: 0, current: 1000 }]);
      expect(shape(many)).toBe(shape(few));
      expect(JSON.stringify(many).length - JSON.stringify(few).length).toBeLessThan(10);
    });
  });

  describe('a transfer held with its movement (the hold carries the transfer)', () => {
    const payout = (id: string, unique_reference = 'inv-1') => ({
      id,
      account_id: ACC,
      payment_type: 'bank-transfer',
      currency: 'USD',
      amount: 600,
      fee: 50,
      unique_reference,
    });
    const holdTransfer = (id: string, ref?: string): AccountCommand => ({
      type: 'PlaceHold',
      account_id: ACC,
      hold_id: id,
      amount: 600,
      fee: 50,
      origin_done: false,
      transfer: payout(id, ref),
      now: T + 5,
    });
    const heldTransfer: AccountEvent = { ...held, data: { ...held.data, transfer: payout('trf_1') } } as AccountEvent;

    it('records the transfer on the hold, the one append that decides its money', () =>
      spec([opened, funded])
        .when(holdTransfer('trf_1'))
        .then([
          {
            type: 'FundsHeld',
            data: {
              account_id: ACC,
              hold_id: 'trf_1',
              amount: 600,
              fee: 50,
              transfer: payout('trf_1'),
              balance_after: { available: 350, current: 1000 },
              held: T + 5,
            },
          },
        ]));

    it('while open, makes another transfer with the same reference a no-op that finds the original', () =>
      spec([opened, funded, heldTransfer])
        .when(holdTransfer('trf_2'))
        .thenState((s, events) => {
          expect(events).toEqual([]);
          expect(s.status === 'open' && heldTransferFor(s, 'inv-1')?.id).toBe('trf_1');
        }));

    it('holds another reference beside it', () =>
      spec([opened, funded, heldTransfer]).when(holdTransfer('trf_2', 'inv-2')).thenError('insufficient_funds'));

    it('leaves the state with its transfer once settled or released', () => {
      for (const ending of [settled, released]) {
        spec([opened, funded, heldTransfer, ending])
          .when(close('ReleaseHold'))
          .thenState((s) =>
            expect([openHolds(s), s.status === 'open' && heldTransferFor(s, 'inv-1')]).toEqual([{}, undefined]),
          );
      }
    });

    it('refuses a transfer held under another id or amount', () =>
      spec([opened, funded])
        .when({ ...holdTransfer('trf_1'), hold_id: 'trf_9' } as AccountCommand)
        .thenError('validation_error'));
  });

  describe('an incoming book transfer', () => {
    it('credits both balances, with the balance after it', () => {
      spec([opened, funded, held])
        .when(receive())
        .then([
          {
            type: 'BookTransferReceived',
            data: {
              account_id: ACC,
              entity_id: ENT,
              transfer_id: 'trf_9',
              from_account_id: 'acc_src',
              amount: 250,
              currency: 'USD',
              balance_after: { available: 600, current: 1250 },
              received: T + 7,
            },
          },
        ]);
    });

    it('is credited once per sending transfer: the log already holding its credit makes a repeat a no-op', () => {
      const events = accountDecider.decide(
        receive(),
        [opened, funded].reduce(accountDecider.evolve, accountDecider.initialState),
      ) as AccountEvent[];
      const given = [opened, funded, ...events];
      spec(given)
        .when(receive({ already_received: bookTransferReceivedIn(given, 'trf_9') }))
        .then([]);
    });

    it('leaves no trace in the state: 600 receipts fold to the shape of one', () => {
      const credit = (i: number): AccountEvent => ({
        type: 'BookTransferReceived',
        data: {
          account_id: ACC,
          entity_id: ENT,
          transfer_id: `trf_${i}`,
          from_account_id: 'acc_src',
          amount: 1,
          currency: 'USD',
          balance_after: { available: i + 1, current: i + 1 },
          received: T,
        },
      });
      const fold = (n: number) =>
        [opened, ...Array.from({ length: n }, (_, i) => credit(i))].reduce(
          accountDecider.evolve,
          accountDecider.initialState,
        );
      expect(JSON.stringify(fold(600)).length - JSON.stringify(fold(1)).length).toBeLessThan(10);
    });

    it('refuses another currency', () =>
      spec([opened])
        .when(receive({ currency: 'EUR' }))
        .thenError('currency_mismatch'));
  });

  it('refuses a hold whose total is not a safe integer as insufficient funds', () => {
    spec([opened, funded])
      .when({
        type: 'PlaceHold',
        account_id: ACC,
        hold_id: 'trf_2',
        amount: Number.MAX_SAFE_INTEGER,
        fee: 10,
        origin_done: false,
        now: T,
      })
      .thenError('insufficient_funds');
  });
});
