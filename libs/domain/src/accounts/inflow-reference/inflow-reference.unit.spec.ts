import { specFor } from '../../shared/testing/given-when-then';
import type { Inflow } from '../account/account.inflows';
import { inflowReferenceDecider, type InflowReferenceEvent } from './inflow-reference';

const spec = specFor(inflowReferenceDecider);
const T0 = 1_700_000_000_000;
const ACC = 'acc_01J00000000000000000000000';

const inflow = (transaction_id = 'txn_1'): Inflow => ({
  transaction_id,
  account_id: ACC,
  amount: 100,
  currency: 'USD',
  rail: 'bank-transfer',
  reference: 'wire-1',
  sender: null,
});
const reserve = (transaction_id = 'txn_1') => ({
  type: 'ReserveInflowReference' as const,
  inflow: inflow(transaction_id),
  account_revision: 3,
  now: T0,
});
const reserved = (transaction_id = 'txn_1'): InflowReferenceEvent => ({
  type: 'InflowReferenceReserved',
  data: {
    account_id: ACC,
    reference: 'wire-1',
    transaction_id,
    inflow: inflow(transaction_id),
    account_revision: 3,
    reserved: T0,
  },
});
const mark = (transaction_id = 'txn_1') => ({
  type: 'MarkInflowRecorded' as const,
  transaction_id,
  revision: 4,
  balance_after: { available: 100, current: 100 },
  funded: T0 + 1,
});
const recorded: InflowReferenceEvent = {
  type: 'InflowRecorded',
  data: {
    account_id: ACC,
    reference: 'wire-1',
    transaction_id: 'txn_1',
    revision: 4,
    balance_after: { available: 100, current: 100 },
    funded: T0 + 1,
  },
};

describe('inflow reference reservation', () => {
  it('reserves a free reference with the whole inflow and the account revision the checks saw', () => {
    spec([]).when(reserve()).then([reserved()]);
  });

  it('appends nothing when the reference is taken, keeping the first inflow for the caller to compare', () => {
    spec([reserved()])
      .when(reserve('txn_2'))
      .thenState((s, events) => {
        expect(events).toEqual([]);
        expect(s).toMatchObject({ status: 'reserved', inflow: { transaction_id: 'txn_1' } });
      });
    spec([reserved(), recorded]).when(reserve('txn_2')).then([]);
  });

  it('records the credit once, for the reserved transaction only', () => {
    spec([reserved()]).when(mark()).then([recorded]);
    spec([reserved(), recorded]).when(mark()).then([]);
    spec([reserved()]).when(mark('txn_2')).then([]);
    spec([]).when(mark()).then([]);
  });

  it('folds to what a duplicate is answered with', () => {
    spec([reserved()])
      .when(mark())
      .thenState((s) =>
        expect(s).toEqual({
          status: 'recorded',
          inflow: inflow(),
          account_revision: 3,
          recorded: { ...inflow(), revision: 4, balance_after: { available: 100, current: 100 }, funded: T0 + 1 },
        }),
      );
  });
});
