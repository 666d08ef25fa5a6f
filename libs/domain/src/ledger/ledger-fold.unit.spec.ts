import { bookKey, foldLedgerEvent, newLedgers } from './ledger-fold';
import type { MoneyEvent } from './money-movements';

/** Given a payout held on an account, then the event that closes it: the books check what it states. */
const KEY = bookKey('org_1', 'sandbox');
const events = (...list: unknown[]) => list as MoneyEvent[];
const opened = { type: 'AccountOpened', data: { account_id: 'acc_1', currency: 'USD' } };
const funded = {
  type: 'AccountFunded',
  data: {
    account_id: 'acc_1',
    transaction_id: 'txn_1',
    amount: 1000,
    currency: 'USD',
    source: 'sandbox',
    balance_after: { available: 1000, current: 1000 },
  },
};
const reserved = {
  type: 'TransferReferenceReserved',
  data: { intent: { id: 'trf_1', payment_type: 'bank-transfer', amount: 600, fee: 50, currency: 'USD' } },
};
const held = {
  type: 'FundsHeld',
  data: {
    account_id: 'acc_1',
    hold_id: 'trf_1',
    amount: 600,
    fee: 50,
    balance_after: { available: 350, current: 1000 },
  },
};
const settled = (total: number, current = 350) => ({
  type: 'HoldSettled',
  data: { account_id: 'acc_1', hold_id: 'trf_1', total, balance_after: { available: 350, current } },
});

function fold(list: MoneyEvent[]) {
  const ledgers = newLedgers();
  return list.map((e) => foldLedgerEvent(ledgers, KEY, e));
}

describe('folding money events checks the books after each', () => {
  it('a settlement that states what was held passes', () => {
    expect(fold(events(opened, funded, reserved, held, settled(650)))).toEqual([null, null, null, null, null]);
  });

  it('a settlement stating another total is named by its transaction, even when its balance agrees', () => {
    expect(fold(events(opened, funded, reserved, held, settled(750)))[4]).toEqual({
      transaction_id: 'trf_1',
      message: 'acc_1: the event settles 750 but 650 is pending',
    });
  });

  it('a balance_after the postings do not give is named', () => {
    expect(fold(events(opened, funded, reserved, held, settled(650, 300)))[4]).toMatchObject({
      transaction_id: 'trf_1',
      message: expect.stringMatching(/says 350\/300 but its postings give 350\/350/),
    });
  });

  it('a collection whose amount is not net + fee is named', () => {
    const action = {
      type: 'IntentActionCreated',
      data: { action: { payment_intent_id: 'pi_1', payment_type: 'card-acq' } },
    };
    const credited = {
      type: 'CollectionCredited',
      data: {
        account_id: 'acc_1',
        payment_intent_id: 'pi_1',
        amount: 1000,
        fee: 30,
        net: 980,
        currency: 'USD',
        balance_after: { available: 1980, current: 1980 },
      },
    };
    expect(fold(events(opened, funded, action, credited))[3]).toEqual({
      transaction_id: 'pi_1',
      message: 'acc_1: amount 1000 is not net 980 + fee 30',
    });
  });
});

describe('sums past 2^53 are exact', () => {
  it('a system account and its currency keep every unit; a balance_after one off is named at that size', () => {
    const ledgers = newLedgers();
    const fund = (account: string, amount: number, current: number, id: string) =>
      foldLedgerEvent(ledgers, KEY, {
        type: 'AccountFunded',
        data: {
          account_id: account,
          transaction_id: id,
          amount,
          currency: 'USD',
          source: 'sandbox',
          balance_after: { available: current, current },
        },
      } as never);
    for (const account of ['acc_1', 'acc_2'])
      foldLedgerEvent(ledgers, KEY, { type: 'AccountOpened', data: { account_id: account, currency: 'USD' } } as never);
    expect(fund('acc_1', 5e15, 5e15, 't1')).toBeNull();
    expect(fund('acc_2', 5e15, 5e15, 't2')).toBeNull();
    for (let i = 1; i <= 5; i++) expect(fund('acc_1', 1, 5e15 + i, `t${2 + i}`)).toBeNull();
    const book = ledgers.books.get(KEY)!;
    expect(book.accounts.get('funding:USD')?.debits_posted).toBe(10_000_000_000_000_005n);
    expect(book.currencies.get('USD')).toMatchObject({
      debits_posted: 10_000_000_000_000_005n,
      credits_posted: 10_000_000_000_000_005n,
    });
    expect(fund('acc_1', 1, 5e15 + 5, 't8')).toMatchObject({
      transaction_id: 't8',
      message: expect.stringMatching(/says 5000000000000005\/5000000000000005 but its postings give 5000000000000006/),
    });
  });
});
