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
   * Open holds by id, each the amount + fee it reserves. A hold leaves the state when it closes, so
   * the state does not grow with history: whether a hold id was already used is answered by the
   * hold's origin (PlaceHold's `origin_done`), how it ended by the account's log (closedHoldIn).
   */
  readonly holds: Readonly<Record<string, number>>;
  /**
   * The open holds of new transfers, by hold id, each with its transfer (a pending transaction and
   * its movement): gone when the hold closes, absent until an account holds one.
   */
  readonly open_transfers?: Readonly<Record<string, HeldTransfer>>;
  /** At most one set of coordinates per rail. */
  readonly details: Readonly<Partial<Record<Rail, AccountDetailsRecord>>>;
  readonly created: number;
  readonly updated: number;
}

/**
 * An append-only list shared between successive states, newest first. Adding is O(1), so folding
 * a card with thousands of transactions stays linear (copying a map per event made it quadratic);
 * a lookup walks it, once per decision.
 */
export type History<T> = { readonly id: string; readonly value: T; readonly previous: History<T> } | null;

export function lookup<T>(history: History<T>, id: string): T | undefined {
  for (let node = history; node; node = node.previous) if (node.id === id) return node.value;
  return undefined;
}

export type AccountState = { readonly status: 'none' } | OpenAccountState;

export const initialAccountState: AccountState = { status: 'none' };

export const heldTotal = (state: OpenAccountState) => Object.values(state.holds).reduce((sum, h) => sum + h, 0);

export const balanceOf = (state: OpenAccountState): Balance => ({ available: state.current - heldTotal(state), current: state.current });

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'AccountOpened') {
    const { account_id, opened, ...rest } = event.data;
    return { ...rest, status: 'open', id: account_id, current: 0, holds: {}, details: {}, created: opened, updated: opened };
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
    case 'FundsHeld': {
      const { hold_id, transfer } = event.data;
      const open = transfer ? { open_transfers: { ...state.open_transfers, [hold_id]: transfer } } : {};
      return { ...state, holds: { ...state.holds, [hold_id]: event.data.amount + event.data.fee }, ...open, updated: event.data.held };
    }
    case 'HoldReleased':
      return { ...closed(state, event.data.hold_id), updated: event.data.released };
    case 'HoldSettled':
      return { ...closed(state, event.data.hold_id), current: state.current - event.data.total, updated: event.data.settled };
    case 'HoldReversed':
      return { ...state, current: state.current + event.data.total, updated: event.data.reversed };
    case 'BookTransferReceived':
      // Received once per sending transfer: the caller reads that from this log (ReceiveBookTransfer's `already_received`).
      return { ...state, current: state.current + event.data.amount, updated: event.data.received };
    case 'CollectionCredited':
    case 'CollectionRefunded':
      return evolveCollections(state, event);
    default:
      return state;
  }
}

function without<T>(open: Readonly<Record<string, T>>, id: string): Readonly<Record<string, T>> {
  const { [id]: _dropped, ...rest } = open;
  return rest;
}

/** A closed hold leaves the state, with its transfer if it had one. */
function closed(state: OpenAccountState, holdId: string): OpenAccountState {
  const open = state.open_transfers?.[holdId] ? { open_transfers: without(state.open_transfers, holdId) } : {};
  return { ...state, holds: without(state.holds, holdId), ...open };
}
