import { applyLedgerChange, newLedgerBook } from './ledger';
import { ledgerChangesOf, newMovementContext, type MoneyEvent } from './money-movements';

/** Given the events of a movement, when its money event comes, then this ledger transaction. */
const B = { available: 0, current: 0 };
const opened = (id: string, currency: string) =>
  ({ type: 'AccountOpened', data: { account_id: id, currency } }) as unknown as MoneyEvent;
const given = (...events: unknown[]) => {
  const context = newMovementContext();
  for (const e of events) ledgerChangesOf(context, e as MoneyEvent);
  return { then: (event: unknown) => ledgerChangesOf(context, event as MoneyEvent) };
};

describe('each money event is one ledger transaction', () => {
  it('a payout holds amount to its rail and the fee to fees:C, pending', () => {
    const reserved = {
      type: 'TransferReferenceReserved',
      data: { intent: { id: 'trf_1', payment_type: 'momo-transfer', amount: 600, fee: 50, currency: 'KES' } },
    };
    expect(
      given(opened('acc_1', 'KES'), reserved).then({
        type: 'FundsHeld',
        data: { account_id: 'acc_1', hold_id: 'trf_1', amount: 600, fee: 50, balance_after: B },
      }),
    ).toEqual([
      {
        kind: 'pending',
        transaction_id: 'trf_1',
        lines: [
          { debit: 'acc_1', credit: 'clearing:momo-transfer:KES', amount: 600, currency: 'KES' },
          { debit: 'acc_1', credit: 'fees:KES', amount: 50, currency: 'KES' },
        ],
      },
    ]);
  });

  it('a reversal returns amount and fee as a new posted transaction', () => {
    const reserved = {
      type: 'TransferReferenceReserved',
      data: { intent: { id: 'trf_1', payment_type: 'bank-transfer', amount: 600, fee: 50, currency: 'USD' } },
    };
    expect(
      given(opened('acc_1', 'USD'), reserved).then({
        type: 'HoldReversed',
        data: { account_id: 'acc_1', hold_id: 'trf_1', total: 650 },
      }),
    ).toEqual([
      {
        kind: 'posted',
        transaction_id: 'trf_1:reversal',
        lines: [
          { debit: 'clearing:bank-transfer:USD', credit: 'acc_1', amount: 600, currency: 'USD' },
          { debit: 'fees:USD', credit: 'acc_1', amount: 50, currency: 'USD' },
        ],
      },
    ]);
  });

  it('a card authorization in another currency has four postings through the FX accounts', () => {
    const held = {
      type: 'CardAuthorizationHeld',
      data: { transaction: { id: 'ctxn_1', currency: 'EUR', amount: 1000 } },
    };
    expect(
      given(opened('acc_1', 'USD'), held).then({
        type: 'FundsHeld',
        data: { account_id: 'acc_1', hold_id: 'ctxn_1', amount: 1085, fee: 0 },
      }),
    ).toEqual([
      {
        kind: 'pending',
        transaction_id: 'ctxn_1',
        lines: [
          { debit: 'acc_1', credit: 'fx:USD', amount: 1085, currency: 'USD' },
          { debit: 'fx:EUR', credit: 'clearing:card:EUR', amount: 1000, currency: 'EUR' },
        ],
      },
    ]);
  });

  it('a collection credits the net and the fee from its rail; a refund pays the rail back', () => {
    const action = {
      type: 'IntentActionCreated',
      data: { action: { payment_intent_id: 'pi_1', payment_type: 'walletpay-acq' } },
    };
    const g = given(opened('acc_1', 'USD'), action);
    expect(
      g.then({
        type: 'CollectionCredited',
        data: { account_id: 'acc_1', payment_intent_id: 'pi_1', amount: 1000, fee: 25, net: 975, currency: 'USD' },
      }),
    ).toEqual([
      {
        kind: 'posted',
        transaction_id: 'pi_1',
        lines: [
          { debit: 'clearing:walletpay-acq:USD', credit: 'acc_1', amount: 975, currency: 'USD' },
          { debit: 'clearing:walletpay-acq:USD', credit: 'fees:USD', amount: 25, currency: 'USD' },
        ],
      },
    ]);
    expect(
      g.then({
        type: 'CollectionRefunded',
        data: { account_id: 'acc_1', payment_intent_id: 'pi_1', refund_id: 'rfd_1', amount: 300, currency: 'USD' },
      }),
    ).toEqual([
      {
        kind: 'posted',
        transaction_id: 'rfd_1',
        lines: [{ debit: 'acc_1', credit: 'clearing:walletpay-acq:USD', amount: 300, currency: 'USD' }],
      },
    ]);
  });

  it('an inflow debits its rail; sandbox funding debits funding:C', () => {
    const g = given(opened('acc_1', 'USD'));
    expect(
      g.then({
        type: 'AccountFunded',
        data: {
          account_id: 'acc_1',
          transaction_id: 'txn_1',
          amount: 5,
          currency: 'USD',
          source: 'inflow',
          rail: 'bank-transfer',
        },
      }),
    ).toEqual([
      {
        kind: 'posted',
        transaction_id: 'txn_1',
        lines: [{ debit: 'clearing:bank-transfer:USD', credit: 'acc_1', amount: 5, currency: 'USD' }],
      },
    ]);
    expect(
      g.then({
        type: 'AccountFunded',
        data: { account_id: 'acc_1', transaction_id: 'txn_2', amount: 5, currency: 'USD', source: 'sandbox' },
      }),
    ).toEqual([
      {
        kind: 'posted',
        transaction_id: 'txn_2',
        lines: [{ debit: 'funding:USD', credit: 'acc_1', amount: 5, currency: 'USD' }],
      },
    ]);
  });

  it('money for a movement the log never described is a fault naming it', () => {
    expect(
      given(opened('acc_1', 'USD')).then({
        type: 'FundsHeld',
        data: { account_id: 'acc_1', hold_id: 'trf_x', amount: 1, fee: 0 },
      }),
    ).toEqual({
      transaction_id: 'trf_x',
      message: 'holds money for a movement the log never described',
    });
  });
});

describe('the books', () => {
  it('refuse a malformed line, a post of nothing pending, and a line in another currency than its account', () => {
    const book = newLedgerBook();
    expect(
      applyLedgerChange(book, {
        kind: 'posted',
        transaction_id: 't1',
        lines: [{ debit: 'funding:USD', credit: 'acc_1', amount: -5, currency: 'USD' }],
      })?.transaction_id,
    ).toBe('t1');
    expect(applyLedgerChange(book, { kind: 'post_pending', transaction_id: 't2' })?.message).toMatch(/not pending/);
    expect(
      applyLedgerChange(book, {
        kind: 'posted',
        transaction_id: 't3',
        lines: [{ debit: 'funding:USD', credit: 'acc_1', amount: 5, currency: 'USD' }],
      }),
    ).toBeNull();
    expect(
      applyLedgerChange(book, {
        kind: 'posted',
        transaction_id: 't4',
        lines: [{ debit: 'funding:EUR', credit: 'acc_1', amount: 5, currency: 'EUR' }],
      })?.message,
    ).toMatch(/acc_1, a USD account/);
    expect(book.accounts.get('acc_1')).toMatchObject({ credits_posted: 5n, debits_posted: 0n });
  });
});
