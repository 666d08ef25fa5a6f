import { specFor } from '../../shared/testing/given-when-then';
import { RAILS } from '../rails';
import { seededRandom } from '../testing/fixed-random';
import { newServiceBan } from '../account-numbers';
import type { AccountEvent } from './account.events';
import { accountDecider, type AccountCommand } from './account.decide';
import { openHolds } from '../testing/open-holds';

const spec = specFor(accountDecider);
const T0 = 1_700_000_000_000;
const ACC = 'acc_01J00000000000000000000000';
const ENT = 'ent_01J00000000000000000000000';
const BAN = newServiceBan(seededRandom(1));

const openCmd = (over: Partial<Extract<AccountCommand, { type: 'OpenAccount' }>> = {}): AccountCommand => ({
  type: 'OpenAccount',
  account_id: ACC,
  entity: { id: ENT, status: 'approved' },
  mode: 'sandbox',
  account_type: 'checking',
  currency: 'USD',
  display_name: 'Operating',
  service_ban: BAN,
  now: T0,
  ...over,
});

const opened = (over: Partial<Extract<AccountEvent, { type: 'AccountOpened' }>['data']> = {}): AccountEvent => ({
  type: 'AccountOpened',
  data: {
    account_id: ACC,
    entity_id: ENT,
    mode: 'sandbox',
    type: 'checking',
    currency: 'USD',
    minor_units: 2,
    display_name: 'Operating',
    service_ban: BAN,
    opened: T0,
    ...over,
  },
});

const funded = (amount: number, current: number, transaction_id = 'txn_1'): AccountEvent => ({
  type: 'AccountFunded',
  data: {
    account_id: ACC,
    entity_id: ENT,
    transaction_id,
    amount,
    currency: 'USD',
    source: 'sandbox',
    balance_after: { available: current, current },
    funded: T0 + 1,
  },
});

const fund = (amount: number, currency = 'USD', transaction_id = 'txn_1'): AccountCommand => ({
  type: 'FundAccount',
  account_id: ACC,
  transaction_id,
  amount,
  currency,
  now: T0 + 1,
});
const hold = (hold_id: string, amount: number, fee = 0): AccountCommand => ({
  type: 'PlaceHold',
  account_id: ACC,
  hold_id,
  amount,
  fee,
  origin_done: false,
  now: T0 + 2,
});
const achNumber = RAILS.ach.newNumber(seededRandom(4));
const issue = (over: Partial<Extract<AccountCommand, { type: 'IssueAccountDetails' }>> = {}): AccountCommand => ({
  type: 'IssueAccountDetails',
  account_id: ACC,
  account_details_id: 'acd_1',
  asset_type: 'fiat',
  rail: 'ach',
  account_number: achNumber,
  now: T0 + 3,
  ...over,
});

describe('account decider', () => {
  describe('no account yet', () => {
    it('opens an account for an approved entity with a zero balance', () => {
      spec([]).when(openCmd()).then([opened()]);
      spec([])
        .when(openCmd())
        .thenState((s) => expect([s, openHolds(s)]).toMatchObject([{ status: 'open', current: 0, held: 0 }, {}]));
    });

    it('records the ISO minor units of the currency, and 6 for stablecoins', () => {
      spec([])
        .when(openCmd({ currency: 'JPY' }))
        .then([opened({ currency: 'JPY', minor_units: 0 })]);
      spec([])
        .when(openCmd({ currency: 'USC' }))
        .then([opened({ currency: 'USC', minor_units: 6 })]);
    });

    it.each(['pending', 'rejected', 'suspended', 'none'])('refuses an entity that is %s', (status) => {
      spec([])
        .when(openCmd({ entity: { id: ENT, status } }))
        .thenError('entity_not_approved', (e) => expect(e.kind).toBe('rule'));
    });

    it.each([
      [{ account_type: 'savings' }, 'type'],
      [{ currency: 'XYZ' }, 'currency'],
      [{ currency: 'usd' }, 'currency'],
      [{ display_name: ' ' }, 'display_name'],
      [{ display_name: 'x'.repeat(101) }, 'display_name'],
    ])('refuses invalid input %p naming the field', (over, field) => {
      spec([])
        .when(openCmd(over))
        .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe(field));
    });

    it('refuses a service BAN that fails its check digit', () => {
      const bad = BAN.slice(0, 9) + String((Number(BAN[9]) + 1) % 10);
      spec([])
        .when(openCmd({ service_ban: bad }))
        .thenError('invalid_service_ban');
    });

    it.each([
      fund(100),
      hold('trf_1', 100),
      issue(),
      { type: 'SettleHold', account_id: ACC, hold_id: 'h', now: T0 } as AccountCommand,
    ])('answers not found to %p', (command) => spec([]).when(command).thenError('account_not_found'));
  });

  describe('open account', () => {
    it('cannot be opened twice', () => spec([opened()]).when(openCmd()).thenError('account_exists'));

    it('is credited by sandbox funding, with the balance after it', () => {
      spec([opened()])
        .when(fund(2500))
        .then([funded(2500, 2500)]);
      spec([opened(), funded(2500, 2500)])
        .when(fund(100, 'USD', 'txn_2'))
        .thenState((s) => expect(s).toMatchObject({ current: 2600 }));
    });

    it('refuses funding in another currency with 422 currency_mismatch', () => {
      spec([opened()])
        .when(fund(100, 'EUR'))
        .thenError('currency_mismatch', (e) => {
          expect(e.kind).toBe('rule');
          expect(e.errors?.[0].field).toBe('currency');
        });
    });

    it.each([0, -5, 1.5, Number.MAX_SAFE_INTEGER + 1])('refuses funding amount %p', (amount) => {
      spec([opened()])
        .when(fund(amount))
        .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe('amount'));
    });

    it('refuses a credit that would leave the safe integer range', () => {
      spec([opened(), funded(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)])
        .when(fund(1))
        .thenError('balance_limit_exceeded');
    });

    it('never takes sandbox money into a live account', () => {
      spec([opened({ mode: 'live' })])
        .when(fund(100))
        .thenError('sandbox_only', (e) => expect(e.kind).toBe('forbidden'));
    });

    it('issues account details on the requested rail with its issuer', () => {
      spec([opened()])
        .when(issue())
        .then([
          {
            type: 'AccountDetailsIssued',
            data: {
              account_id: ACC,
              entity_id: ENT,
              account_details_id: 'acd_1',
              asset_type: 'fiat',
              rail: 'ach',
              currency: 'USD',
              account_number: achNumber,
              issuer: RAILS.ach.issuer,
              issued: T0 + 3,
            },
          },
        ]);
    });

    it('refuses an asset type or rail that does not fit the currency', () => {
      spec([opened()])
        .when(issue({ asset_type: 'crypto' }))
        .thenError('asset_type_mismatch');
      spec([opened()])
        .when(issue({ rail: 'sepa' }))
        .thenError('rail_not_supported');
      spec([opened({ currency: 'JPY', minor_units: 0 })])
        .when(issue())
        .thenError('rail_not_supported');
    });

    it('refuses an account number that is not valid for the rail', () => {
      spec([opened()])
        .when(issue({ account_number: '0123' }))
        .thenError('validation_error');
    });

    it('holds amount + fee when available covers it, and refuses beyond', () => {
      spec([opened(), funded(1000, 1000)])
        .when(hold('trf_1', 900, 100))
        .thenState((s, events) => {
          expect(events[0]).toMatchObject({
            type: 'FundsHeld',
            data: { balance_after: { available: 0, current: 1000 } },
          });
          expect([s, openHolds(s)]).toMatchObject([{ current: 1000, held: 1000 }, { trf_1: 1000 }]);
        });
      spec([opened(), funded(1000, 1000)])
        .when(hold('trf_1', 901, 100))
        .thenError('insufficient_funds');
      spec([opened()]).when(hold('trf_1', 1)).thenError('insufficient_funds');
    });
  });

  describe('open account with details issued', () => {
    const issued = (): AccountEvent[] => {
      const events = accountDecider.decide(issue(), accountDecider.evolve(accountDecider.initialState, opened()));
      return [opened(), ...(events as AccountEvent[])];
    };

    it('answers a second request on the same rail with nothing new', () => {
      spec(issued())
        .when(issue({ account_details_id: 'acd_2', account_number: RAILS.ach.newNumber(seededRandom(8)) }))
        .then([]);
    });

    it('still issues on another rail of the currency', () => {
      spec(issued())
        .when(issue({ rail: 'wire', account_details_id: 'acd_2' }))
        .thenState((s) => {
          expect(s.status === 'open' && Object.keys(s.details).sort()).toEqual(['ach', 'wire']);
        });
    });
  });

  describe('open account with a hold', () => {
    const given = [
      opened(),
      funded(1000, 1000),
      {
        type: 'FundsHeld',
        data: {
          account_id: ACC,
          hold_id: 'trf_1',
          amount: 600,
          fee: 50,
          balance_after: { available: 350, current: 1000 },
          held: T0,
        },
      } as AccountEvent,
    ];

    it('leaves only the rest available for a second hold', () => {
      spec(given).when(hold('trf_2', 351)).thenError('insufficient_funds');
      spec(given)
        .when(hold('trf_2', 350))
        .thenState((s) =>
          expect([s, openHolds(s)]).toMatchObject([
            { current: 1000, held: 1000 },
            { trf_1: 650, trf_2: 350 },
          ]),
        );
    });

    it('treats the same hold id again as already done', () =>
      spec(given)
        .when(hold('trf_1', 600, 50))
        .then([]));

    it('settles by debiting current and dropping the hold', () => {
      spec(given)
        .when({ type: 'SettleHold', account_id: ACC, hold_id: 'trf_1', now: T0 + 9 })
        .then([
          {
            type: 'HoldSettled',
            data: {
              account_id: ACC,
              hold_id: 'trf_1',
              total: 650,
              balance_after: { available: 350, current: 350 },
              settled: T0 + 9,
            },
          },
        ]);
    });

    it('releases by giving the held total back to available', () => {
      spec(given)
        .when({ type: 'ReleaseHold', account_id: ACC, hold_id: 'trf_1', now: T0 + 9 })
        .then([
          {
            type: 'HoldReleased',
            data: {
              account_id: ACC,
              hold_id: 'trf_1',
              total: 650,
              balance_after: { available: 1000, current: 1000 },
              released: T0 + 9,
            },
          },
        ]);
    });

    it('ignores closing a hold that is not open', () => {
      spec(given).when({ type: 'ReleaseHold', account_id: ACC, hold_id: 'trf_x', now: T0 }).then([]);
      spec(given).when({ type: 'SettleHold', account_id: ACC, hold_id: 'trf_x', now: T0 }).then([]);
    });
  });
});
