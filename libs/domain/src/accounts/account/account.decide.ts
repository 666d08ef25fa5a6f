import {
  conflict,
  domainError,
  invalid,
  notFound,
  rule,
  type Decider,
  type Decision,
  type DomainError,
} from '../../shared';
import { isValidServiceBan } from '../account-numbers';
import { currencyInfo, isValidAmount } from '../currency';
import { assetTypeOf, isRail, RAILS, railsFor, type AssetType, type Rail } from '../rails';
import type { AccountEvent, HeldTransfer } from './account.events';
import { closeHold, placeHold, receiveBookTransfer, reverseHold } from './account.money';
import { creditCollection, refundCollection, type CollectionCommand } from './account.collections';
import { recordInflow, type InflowCommand } from './account.inflows';
import { balanceOf, evolveAccount, initialAccountState, type AccountState, type OpenAccountState } from './account';

/** Inflows (decisions §11) are account commands: exported with the decider they belong to. */
export * from './account.inflows';

export type AccountCommand =
  | {
      readonly type: 'OpenAccount';
      readonly account_id: string;
      /** The owner as folded from its own stream by the caller; only approved entities hold money. */
      readonly entity: { readonly id: string; readonly status: string };
      readonly mode: 'sandbox' | 'live';
      readonly account_type: string;
      readonly currency: string;
      readonly display_name: string;
      readonly service_ban: string;
      readonly now: number;
    }
  | {
      readonly type: 'FundAccount';
      readonly account_id: string;
      readonly transaction_id: string;
      readonly amount: number;
      readonly currency: string;
      readonly now: number;
    }
  | {
      readonly type: 'IssueAccountDetails';
      readonly account_id: string;
      readonly account_details_id: string;
      readonly asset_type: AssetType;
      readonly rail: Rail;
      readonly account_number: string;
      readonly now: number;
    }
  | {
      readonly type: 'PlaceHold';
      readonly account_id: string;
      readonly hold_id: string;
      readonly amount: number;
      readonly fee: number;
      /**
       * The hold's origin has moved past holding (its transfer created or voided, its card
       * transaction no longer pending), read after the account was folded: a hold now would be a
       * second one that nothing closes, so placing is a no-op.
       */
      readonly origin_done: boolean;
      /**
       * A new transfer's hold carries the transfer. While it is open, no other transfer with the same
       * `unique_reference` is held: a duplicate's hold is a no-op and finds the original in the state.
       */
      readonly transfer?: HeldTransfer;
      readonly now: number;
    }
  | { readonly type: 'ReleaseHold'; readonly account_id: string; readonly hold_id: string; readonly now: number }
  | { readonly type: 'SettleHold'; readonly account_id: string; readonly hold_id: string; readonly now: number }
  | {
      readonly type: 'ReverseSettledHold';
      readonly account_id: string;
      readonly hold_id: string;
      /** What the settled hold debited: the transfer's amount + fee, from the transfer's own stream. */
      readonly total: number;
      /** This log holds the credit back already, read from the revision the reversal was decided at (bounded). */
      readonly already_reversed: boolean;
      readonly now: number;
    }
  | {
      readonly type: 'ReceiveBookTransfer';
      readonly account_id: string;
      readonly transfer_id: string;
      readonly from_account_id: string;
      readonly amount: number;
      readonly currency: string;
      /**
       * This account's log already holds the credit for `transfer_id` (read by the caller after the
       * fold, from the revision the transfer was checked on): the state keeps no list of receipts.
       */
      readonly already_received: boolean;
      readonly now: number;
    }
  | CollectionCommand
  | InflowCommand;

type Open = Extract<AccountCommand, { type: 'OpenAccount' }>;

export const DISPLAY_NAME_MAX = 100;

/** Everything that refuses an opening, checkable before a service BAN is reserved for it. */
export function refuseOpenAccount(command: Omit<Open, 'service_ban'>): DomainError | null {
  if (command.account_type !== 'checking') return invalid('type', 'type must be "checking"');
  if (!currencyInfo(command.currency)) return invalid('currency', 'currency must be an ISO 4217 code, USC or UST');
  const name = command.display_name;
  if (name.trim().length === 0 || name.length > DISPLAY_NAME_MAX)
    return invalid('display_name', `display_name must be 1-${DISPLAY_NAME_MAX} characters`);
  if (command.entity.status !== 'approved') {
    return rule(
      'entity_not_approved',
      `Entity ${command.entity.id} is ${command.entity.status}; accounts need an approved entity`,
      [{ field: 'entity_id', message: 'the entity must be approved' }],
    );
  }
  return null;
}

/** Whether this account can have coordinates on this rail, checkable before a number is reserved. */
export function refuseAccountDetails(
  state: OpenAccountState,
  assetType: AssetType,
  rail: Rail | null,
): DomainError | null {
  if (assetTypeOf(state.currency) !== assetType) {
    return rule('asset_type_mismatch', `A ${state.currency} account takes asset_type ${assetTypeOf(state.currency)}`, [
      { field: 'asset_type', message: `must be ${assetTypeOf(state.currency)} for ${state.currency}` },
    ]);
  }
  const offered = railsFor(state.currency);
  if (!rail || !offered.includes(rail)) {
    const which = offered.length ? `one of ${offered.join(', ')}` : 'none yet';
    return rule(
      'rail_not_supported',
      `${state.currency} is not carried on ${rail ?? 'any rail'} here; rails: ${which}`,
      [{ field: 'rail', message: `not available for ${state.currency}` }],
    );
  }
  return null;
}

function open(command: Open, state: AccountState): Decision<AccountEvent> {
  if (state.status !== 'none') return conflict('account_exists', `Account ${command.account_id} already exists`);
  const refused = refuseOpenAccount(command);
  if (refused) return refused;
  if (!isValidServiceBan(command.service_ban))
    return domainError('validation', 'invalid_service_ban', 'The service BAN fails its check digit');
  const { account_id, entity, mode, currency, display_name, service_ban, now } = command;
  const minor_units = currencyInfo(currency)!.minor_units;
  return [
    {
      type: 'AccountOpened',
      data: {
        account_id,
        entity_id: entity.id,
        mode,
        type: 'checking',
        currency,
        minor_units,
        display_name,
        service_ban,
        opened: now,
      },
    },
  ];
}

function fund(
  command: Extract<AccountCommand, { type: 'FundAccount' }>,
  state: OpenAccountState,
): Decision<AccountEvent> {
  // Sandbox money is test money; a live account's balance must only ever hold real funds.
  if (state.mode !== 'sandbox')
    return domainError('forbidden', 'sandbox_only', 'Live accounts cannot be funded from the sandbox');
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (command.currency !== state.currency) {
    return rule('currency_mismatch', `The account holds ${state.currency}, not ${command.currency}`, [
      { field: 'currency', message: `must be ${state.currency}` },
    ]);
  }
  if (state.current + command.amount > Number.MAX_SAFE_INTEGER)
    return rule('balance_limit_exceeded', 'The balance would exceed the largest representable amount');
  const current = state.current + command.amount;
  const balance_after = { current, available: balanceOf(state).available + command.amount };
  const { account_id, transaction_id, amount, currency, now } = command;
  return [
    {
      type: 'AccountFunded',
      data: {
        account_id,
        entity_id: state.entity_id,
        transaction_id,
        amount,
        currency,
        source: 'sandbox',
        balance_after,
        funded: now,
      },
    },
  ];
}

function issueDetails(
  command: Extract<AccountCommand, { type: 'IssueAccountDetails' }>,
  state: OpenAccountState,
): Decision<AccountEvent> {
  if (!isRail(command.rail)) return invalid('rail', 'unknown rail');
  const refused = refuseAccountDetails(state, command.asset_type, command.rail);
  if (refused) return refused;
  // Coordinates are issued once per rail; asking again is answered with the existing record.
  if (state.details[command.rail]) return [];
  const spec = RAILS[command.rail];
  if (!spec.isValidNumber(command.account_number))
    return invalid('account_number', `not a valid ${command.rail} account number`);
  const { account_id, account_details_id, asset_type, rail, account_number, now } = command;
  return [
    {
      type: 'AccountDetailsIssued',
      data: {
        account_id,
        entity_id: state.entity_id,
        account_details_id,
        asset_type,
        rail,
        currency: state.currency,
        account_number,
        issuer: spec.issuer,
        issued: now,
      },
    },
  ];
}

export function decideAccount(command: AccountCommand, state: AccountState): Decision<AccountEvent> {
  if (command.type === 'OpenAccount') return open(command, state);
  if (state.status === 'none') return notFound('account', command.account_id);
  switch (command.type) {
    case 'FundAccount':
      return fund(command, state);
    case 'RecordInflow':
      return recordInflow(command, state);
    case 'IssueAccountDetails':
      return issueDetails(command, state);
    case 'PlaceHold':
      return placeHold(command, state);
    case 'ReleaseHold':
    case 'SettleHold':
      return closeHold(command, state);
    case 'ReverseSettledHold':
      return reverseHold(command, state);
    case 'ReceiveBookTransfer':
      return receiveBookTransfer(command, state);
    case 'CreditCollection':
      return creditCollection(command, state);
    case 'RefundCollection':
      return refundCollection(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: initialAccountState,
  decide: decideAccount,
  evolve: evolveAccount,
};
