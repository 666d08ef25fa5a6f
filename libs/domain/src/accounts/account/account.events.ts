import type { AssetType, Issuer, Rail } from '../rails';
import type { CollectionEvent } from './account.collections';

/**
 * The payout a hold decides (new transfers): a pending ledger transaction carries its whole
 * movement, so the hold is the one append that decides a transfer's money, and the ledger, the
 * recovery process manager and a duplicate request read the movement from it. Typed by the fields
 * the account and the ledger use; what is written is the transfer's whole intent (TransferIntent).
 */
export interface HeldTransfer {
  readonly id: string;
  readonly account_id: string;
  readonly payment_type: string;
  readonly currency: string;
  readonly amount: number;
  readonly fee: number;
  readonly unique_reference: string;
}

/** Both figures in minor units; `available = current − holds`. */
export interface Balance {
  readonly available: number;
  readonly current: number;
}

/**
 * Money lives on this stream: every credit, hold and debit is an account event, so the optimistic
 * append on one stream is what keeps concurrent spends from overdrawing. Every event that moves
 * money carries `balance_after`, so readers (list projection, webhook worker) need not re-fold.
 */
export type AccountEvent =
  | {
      readonly type: 'AccountOpened';
      readonly data: {
        readonly account_id: string;
        readonly entity_id: string;
        /** The mode of the key that opened it; sandbox money never enters a live account. */
        readonly mode: 'sandbox' | 'live';
        readonly type: 'checking';
        readonly currency: string;
        readonly minor_units: number;
        readonly display_name: string;
        readonly service_ban: string;
        readonly opened: number;
      };
    }
  | {
      /** A settled credit; carries what `inflows.completed` and `accounts.updated` need. */
      readonly type: 'AccountFunded';
      readonly data: {
        readonly account_id: string;
        readonly entity_id: string;
        readonly transaction_id: string;
        readonly amount: number;
        readonly currency: string;
        /** `inflow`: money received on a rail for any mode (decisions §11), recorded by an operator. */
        readonly source: 'sandbox' | 'inflow';
        /** Inflows only: the rail it arrived on, the sender's reference (unique per account) and who sent it. */
        readonly rail?: string;
        readonly reference?: string;
        readonly sender?: string | null;
        readonly balance_after: Balance;
        readonly funded: number;
      };
    }
  | {
      readonly type: 'AccountDetailsIssued';
      readonly data: {
        readonly account_id: string;
        readonly entity_id: string;
        readonly account_details_id: string;
        readonly asset_type: AssetType;
        readonly rail: Rail;
        readonly currency: string;
        readonly account_number: string;
        readonly issuer: Issuer;
        readonly issued: number;
      };
    }
  | {
      /** Reserves amount + fee for an outgoing payment (hold_id is the transfer's id). */
      readonly type: 'FundsHeld';
      readonly data: {
        readonly account_id: string;
        readonly hold_id: string;
        readonly amount: number;
        readonly fee: number;
        /** New transfers' holds (card holds have none; older logs described the payout in its reservation). */
        readonly transfer?: HeldTransfer;
        readonly balance_after: Balance;
        readonly held: number;
      };
    }
  | {
      /** The payment failed: the hold is dropped and `available` comes back. */
      readonly type: 'HoldReleased';
      readonly data: {
        readonly account_id: string;
        readonly hold_id: string;
        readonly total: number;
        readonly balance_after: Balance;
        readonly released: number;
      };
    }
  | {
      /** The payment succeeded: `current` is debited by the held total and the hold is dropped. */
      readonly type: 'HoldSettled';
      readonly data: {
        readonly account_id: string;
        readonly hold_id: string;
        readonly total: number;
        readonly balance_after: Balance;
        readonly settled: number;
      };
    }
  | {
      /** A settled payment came back (transfer reversed): the settled total is credited again. */
      readonly type: 'HoldReversed';
      readonly data: {
        readonly account_id: string;
        readonly hold_id: string;
        readonly total: number;
        readonly balance_after: Balance;
        readonly reversed: number;
      };
    }
  | {
      /** A book transfer from another account of the organization arrived (transfer_id is the sender's). */
      readonly type: 'BookTransferReceived';
      readonly data: {
        readonly account_id: string;
        readonly entity_id: string;
        readonly transfer_id: string;
        readonly from_account_id: string;
        readonly amount: number;
        readonly currency: string;
        readonly balance_after: Balance;
        readonly received: number;
      };
    }
  | CollectionEvent;

export type AccountEventType = AccountEvent['type'];
export const ACCOUNT_EVENT_TYPES: readonly AccountEventType[] = [
  'AccountOpened',
  'AccountFunded',
  'AccountDetailsIssued',
  'FundsHeld',
  'HoldReleased',
  'HoldSettled',
  'HoldReversed',
  'BookTransferReceived',
  'CollectionCredited',
  'CollectionRefunded',
];
