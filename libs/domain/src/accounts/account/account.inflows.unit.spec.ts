import { specFor } from '../../shared/testing/given-when-then';
import type { AccountEvent } from './account.events';
import { accountDecider, type AccountCommand } from './account.decide';
import { refuseInflow, type InflowCommand } from './account.inflows';

const spec = specFor(accountDecider);
const T0 = 1_700_000_000_000;
const ACC = 'acc_01J00000000000000000000000';
const ENT = 'ent_01J00000000000000000000000';

const opened = (over: Partial<Extract<AccountEvent, { type: 'AccountOpened' }>['data']> = {}): AccountEvent => ({
  type: 'AccountOpened',
  data: {
    account_id: ACC,
    entity_id: ENT,
    mode: 'live',
    type: 'checking',
    currency: 'USD',
    minor_units: 2,
    display_name: 'Operating',
    service_ban: '1000000009',
    opened: T0,
    ...over,
  },
});

const inflow = (over: Partial<InflowCommand> = {}): AccountCommand => ({
  type: 'RecordInflow',
  account_id: ACC,
  transaction_id: 'txn_1',
  amount: 2500,
  currency: 'USD',
  rail: 'bank-transfer',
  reference: 'wire-0001',
  sender: 'ACME Ltd',
  already_credited: false,
  now: T0 + 5,
  ...over,
});

const credited = (
  amount: number,
  balance: { available: number; current: number },
  over: Record<string, unknown> = {},
): AccountEvent =>
  ({
    type: 'AccountFunded',
    data: {
      account_id: ACC,
      entity_id: ENT,
      transaction_id: 'txn_1',
      amount,
      currency: 'USD',
      source: 'inflow',
      rail: 'bank-transfer',
      reference: 'wire-0001',
      sender: 'ACME Ltd',
      balance_after: balance,
      funded: T0 + 5,
      ...over,
    },
  }) as AccountEvent;

const held = (amount: number, available: number, current: number): AccountEvent => ({
  type: 'FundsHeld',
  data: { account_id: ACC, hold_id: 'trf_1', amount, fee: 0, balance_after: { available, current }, held: T0 + 2 },
});

describe('account decider: RecordInflow (decisions §11)', () => {
  it('answers not found when there is no account', () => {
    spec([])
      .when(inflow())
      .thenError('account_not_found', (e) => expect(e.kind).toBe('not_found'));
  });

  it('credits a live account as a settled inflow, recording rail, reference and sender', () => {
    spec([opened()])
      .when(inflow())
      .then([credited(2500, { available: 2500, current: 2500 })]);
    spec([opened()])
      .when(inflow())
      .thenState((s) => expect(s).toMatchObject({ status: 'open', current: 2500 }));
  });

  it('credits a sandbox account too (any mode), and keeps a null sender', () => {
    spec([opened({ mode: 'sandbox' })])
      .when(inflow({ sender: null }))
      .then([credited(2500, { available: 2500, current: 2500 }, { sender: null })]);
  });

  it('adds to both figures, holds staying held', () => {
    const given = [
      opened(),
      credited(1000, { available: 1000, current: 1000 }, { transaction_id: 'txn_0' }),
      held(400, 600, 1000),
    ];
    spec(given)
      .when(inflow({ amount: 50 }))
      .then([credited(50, { available: 650, current: 1050 })]);
  });

  it('is a no-op when the caller found the transaction already credited', () => {
    spec([opened(), credited(2500, { available: 2500, current: 2500 })])
      .when(inflow({ already_credited: true }))
      .then([]);
  });

  it('refuses another currency with 422 currency_mismatch naming the field', () => {
    spec([opened()])
      .when(inflow({ currency: 'EUR' }))
      .thenError('currency_mismatch', (e) => {
        expect(e.kind).toBe('rule');
        expect(e.errors?.[0].field).toBe('currency');
      });
  });

  it.each([
    ['USD', 'stablecoin-transfer'],
    ['USC', 'bank-transfer'],
    ['UST', 'momo-transfer'],
  ])('refuses a %s account receiving on %s with 422 rail_not_supported', (currency, rail) => {
    spec([opened({ currency, minor_units: currency === 'USD' ? 2 : 6 })])
      .when(inflow({ currency, rail }))
      .thenError('rail_not_supported', (e) => {
        expect(e.kind).toBe('rule');
        expect(e.errors?.[0].field).toBe('rail');
      });
  });

  it('takes stablecoins on stablecoin-transfer and fiat on mobile money', () => {
    spec([opened({ currency: 'USC', minor_units: 6 })])
      .when(inflow({ currency: 'USC', rail: 'stablecoin-transfer' }))
      .thenState((s) => expect(s).toMatchObject({ current: 2500 }));
    spec([opened({ currency: 'KES' })])
      .when(inflow({ currency: 'KES', rail: 'momo-transfer' }))
      .thenState((s) => expect(s).toMatchObject({ current: 2500 }));
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: 1.5 }, 'amount'],
    [{ amount: Number.MAX_SAFE_INTEGER + 1 }, 'amount'],
    [{ rail: 'book-transfer' }, 'rail'],
    [{ rail: 'ach' }, 'rail'],
    [{ reference: '' }, 'reference'],
    [{ reference: '   ' }, 'reference'],
    [{ reference: 'r'.repeat(65) }, 'reference'],
    [{ sender: '' }, 'sender'],
    [{ sender: 's'.repeat(141) }, 'sender'],
  ])('refuses %p with 400 naming %s', (over, field) => {
    spec([opened()])
      .when(inflow(over as Partial<InflowCommand>))
      .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe(field));
  });

  it('refuses a credit that would leave the safe integer range', () => {
    spec([
      opened(),
      credited(
        Number.MAX_SAFE_INTEGER,
        { available: Number.MAX_SAFE_INTEGER, current: Number.MAX_SAFE_INTEGER },
        { transaction_id: 'txn_0' },
      ),
    ])
      .when(inflow({ amount: 1 }))
      .thenError('balance_limit_exceeded');
  });

  it('exposes the same refusals for the caller to check before reserving the reference', () => {
    const state = accountDecider.evolve(accountDecider.initialState, opened());
    if (state.status !== 'open') throw new Error('not open');
    const input = { account_id: ACC, amount: 1, currency: 'USD', rail: 'bank-transfer', reference: 'r', sender: null };
    expect(refuseInflow(state, input)).toBeNull();
    expect(refuseInflow(state, { ...input, currency: 'GBP' })?.code).toBe('currency_mismatch');
  });
});
