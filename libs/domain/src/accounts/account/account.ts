import { emptyMap, get, remove, set, type PersistentMap } from '../../shared/persistent-map';
import type { AssetType, Issuer, Rail } from '../rails';
import type { AccountEvent, Balance, HeldTransfer } from './account.events';
import { evolveCollections } from './account.collections';

export interface AccountDetailsRecord {
  readonly id: string;
  readonly account_id: string;
  readonly entity_id: string;
  readonly asset_type: AssetType;
  readonly rail: Rail;
  readonly currency: string;
  readonly account_number: string;
  readonly issuer: Issuer;
  readonly status: 'active';
  readonly created: number;
  readonly updated: number;
}

export interface OpenAccountState {
  readonly status: 'open';
  readonly id: string;
  readonly entity_id: string;
  readonly mode: 'sandbox' | 'live';
  readonly type: 'checking';
  readonly currency: string;
  readonly minor_units: number;
  readonly display_name: string;
  readonly service_ban: string;
  readonly current: number;
  /**
   * TigerBeetle's running totals, as far as a decision needs them: `current` is posted credits less
   * posted debits, `held` the pending debits (the sum of the open holds), kept as events come so no
   * decision sums the holds. Lifetime sums (which grow past 2^53) are the ledger's, not the state's.
   */
  readonly held: number;
  /**
   * Open holds by id, each with the total it reserves (amount + fee) and, for new transfers, the
   * transfer it decides. A persistent map: holding or closing one copies a path, not the record, so a
   * decision costs the same with 10,000 open as with none. A hold leaves it when it closes, so the
   * state does not grow with history: a hold id that is not open here is closed (or never held).
   */
  readonly holds: PersistentMap<HeldValue>;
  /** The open transfers' holds by `unique_reference`: while one is open, no other transfer holds the reference. */
  readonly references: PersistentMap<string>;
  /** At most one set of coordinates per rail. */
  readonly details: Readonly<Partial<Record<Rail, AccountDetailsRecord>>>;
  readonly created: number;
  readonly updated: number;
}

/** What an open hold reserves (amount + fee), and the transfer it decides when it is a new transfer's. */
export interface OpenHold {
  readonly total: number;
  readonly transfer?: HeldTransfer;
}

/**
 * As kept: a new transfer's hold is its transfer (whose amount + fee is the total), any other hold
 * its total. No wrapper object per hold, so a snapshot of 10,000 open holds stays small and fast.
 */
type HeldValue = number | HeldTransfer;

export type AccountState = { readonly status: 'none' } | OpenAccountState;

export const initialAccountState: AccountState = { status: 'none' };

export const balanceOf = (state: OpenAccountState): Balance => ({
  available: state.current - state.held,
  current: state.current,
});

/** The open hold with this id, if it is open. */
export function openHold(state: OpenAccountState, holdId: string): OpenHold | undefined {
  const held = get(state.holds, holdId);
  if (held === undefined) return undefined;
  return typeof held === 'number' ? { total: held } : { total: held.amount + held.fee, transfer: held };
}

/** The open hold of the transfer with this reference, if one is open: the movement's key while it is pending. */
export function heldTransferFor(state: OpenAccountState, uniqueReference: string): HeldTransfer | undefined {
  const holdId = get(state.references, uniqueReference);
  return holdId === undefined ? undefined : openHold(state, holdId)?.transfer;
}

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'AccountOpened') {
    const { account_id, opened, ...rest } = event.data;
    return {
      ...rest,
      status: 'open',
      id: account_id,
      current: 0,
      held: 0,
      holds: emptyMap(),
      references: emptyMap(),
      details: {},
      created: opened,
      updated: opened,
    };
  }
  if (state.status !== 'open') return state;
  switch (event.type) {
    case 'AccountFunded':
      return { ...state, current: state.current + event.data.amount, updated: event.data.funded };
    case 'AccountDetailsIssued': {
      const d = event.data;
      const record: AccountDetailsRecord = {
        id: d.account_details_id,
        account_id: d.account_id,
        entity_id: d.entity_id,
        asset_type: d.asset_type,
        rail: d.rail,
        currency: d.currency,
        account_number: d.account_number,
        issuer: d.issuer,
        status: 'active',
        created: d.issued,
        updated: d.issued,
      };
      // Coordinates are not part of the account object, so `updated` stays as it was.
      return { ...state, details: { ...state.details, [d.rail]: record } };
    }
    case 'FundsHeld':
      return { ...held(state, event.data), updated: event.data.held };
    case 'HoldReleased':
      return { ...closed(state, event.data.hold_id), updated: event.data.released };
    case 'HoldSettled':
      return {
        ...closed(state, event.data.hold_id),
        current: state.current - event.data.total,
        updated: event.data.settled,
      };
    case 'HoldReversed':
      return { ...state, current: state.current + event.data.total, updated: event.data.reversed };
    case 'BookTransferReceived':
      return { ...state, current: state.current + event.data.amount, updated: event.data.received };
    case 'CollectionCredited':
    case 'CollectionRefunded':
      return evolveCollections(state, event);
    default:
      return state;
  }
}

function held(state: OpenAccountState, data: Extract<AccountEvent, { type: 'FundsHeld' }>['data']): OpenAccountState {
  const { hold_id, transfer } = data;
  const total = data.amount + data.fee;
  // The decider holds a transfer for exactly its amount + fee; anything else is kept as a bare total.
  const hold: HeldValue = transfer && transfer.amount + transfer.fee === total ? transfer : total;
  // The decider never holds an open id twice; were it in a log, the total still stays the map's sum.
  const before = openHold(state, hold_id)?.total ?? 0;
  const references =
    typeof hold === 'object' ? set(state.references, hold.unique_reference, hold_id) : state.references;
  return { ...state, held: state.held - before + total, holds: set(state.holds, hold_id, hold), references };
}

/** A closed hold leaves the state, with its transfer's reference if it had one. */
function closed(state: OpenAccountState, holdId: string): OpenAccountState {
  const hold = openHold(state, holdId);
  if (!hold) return state;
  const reference = hold.transfer?.unique_reference;
  const references =
    reference !== undefined && get(state.references, reference) === holdId
      ? remove(state.references, reference)
      : state.references;
  return { ...state, held: state.held - hold.total, holds: remove(state.holds, holdId), references };
}
