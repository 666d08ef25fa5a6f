import type { PaymentType } from '../payment-types';

export type TransferStatus = 'pending' | 'processing' | 'successful' | 'failed' | 'reversed' | 'cancelled';
export const TRANSFER_STATUSES: readonly TransferStatus[] = [
  'pending',
  'processing',
  'successful',
  'failed',
  'reversed',
  'cancelled',
];

/** The transfer as the API shows it (decisions §6), minus the constant `object` and `direction`. */
export interface TransferRecord {
  readonly id: string;
  readonly account_id: string;
  readonly entity_id: string;
  readonly counterparty_id: string;
  readonly payment_detail_id: string;
  readonly currency: string;
  readonly amount: number;
  readonly fee: number;
  readonly status: TransferStatus;
  readonly status_reason: string | null;
  readonly payment_type: PaymentType;
  readonly description: string | null;
  readonly unique_reference: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly created: number;
  readonly updated: number;
}

/** Everything a transfer is created from; also what its reference reservation carries. */
export interface TransferIntent extends Omit<TransferRecord, 'status' | 'status_reason' | 'updated'> {
  /** Book transfers only: the account of the same organization and currency that is credited. */
  readonly destination_account_id: string | null;
  /**
   * Book transfers: the destination's revision when the transfer was checked. Its credit can only
   * land after it, so whether it landed is read from there on (absent in older logs: from 0).
   */
  readonly destination_revision?: number;
}

/**
 * Every lifecycle event carries the whole transfer after it, so the webhook worker can send
 * `outflows.*` with `data` = the transfer without folding the stream.
 */
export type TransferEvent =
  | {
      readonly type: 'TransferCreated';
      readonly data: {
        readonly transfer: TransferRecord;
        readonly destination_account_id: string | null;
        readonly destination_revision?: number;
      };
    }
  | { readonly type: 'TransferProcessing'; readonly data: { readonly transfer: TransferRecord } }
  | { readonly type: 'TransferSucceeded'; readonly data: { readonly transfer: TransferRecord } }
  | { readonly type: 'TransferFailed'; readonly data: { readonly transfer: TransferRecord } }
  /** Taken back while pending (decisions §14): its hold is released like a failure's, so the fee is never taken. */
  | { readonly type: 'TransferCancelled'; readonly data: { readonly transfer: TransferRecord } }
  | {
      readonly type: 'TransferReversed';
      readonly data: {
        readonly transfer: TransferRecord;
        /**
         * The account's revision when the reversal was decided: its credit back can only land after
         * it, so whether it landed is read from there on, never from the account's start (absent
         * in older logs).
         */
        readonly account_revision?: number;
      };
    }
  | {
      /**
       * Older logs only (nothing writes it since issue 19: a refused hold now writes nothing): the
       * id was reserved but its hold was refused, so it will never be a transfer. It was written
       * with "no stream" expected, so exactly one of this and TransferCreated is its first event.
       */
      readonly type: 'TransferVoided';
      readonly data: {
        readonly transfer_id: string;
        readonly account_id: string;
        readonly reason: string;
        readonly voided: number;
      };
    };

/**
 * Written once, by the older-log migration at start (issue 26, item 7), on the keyed stream of a
 * reference an older log bound to a transfer that lives in `transfer-<id>` (legacy-reservations.ts):
 * the keyed stream then answers a duplicate itself, so a request no longer reads the older
 * reservation stream. Not a `TransferEvent` (no lifecycle, no money, no public event): only the
 * keyed stream's fold reads it.
 */
export type TransferMigrationEvent = {
  readonly type: 'TransferReferenceMigrated';
  readonly data: {
    readonly transfer_id: string;
    readonly account_id: string;
    readonly unique_reference: string;
    readonly migrated: number;
  };
};

export type TransferEventType = TransferEvent['type'];

/** The event each status is entered with. */
export const EVENT_FOR_STATUS = {
  processing: 'TransferProcessing',
  successful: 'TransferSucceeded',
  failed: 'TransferFailed',
  reversed: 'TransferReversed',
  cancelled: 'TransferCancelled',
} as const satisfies Record<Exclude<TransferStatus, 'pending'>, TransferEventType>;

export const TRANSFER_EVENT_TYPES: readonly TransferEventType[] = [
  'TransferCreated',
  'TransferProcessing',
  'TransferSucceeded',
  'TransferFailed',
  'TransferReversed',
  'TransferCancelled',
  'TransferVoided',
];
