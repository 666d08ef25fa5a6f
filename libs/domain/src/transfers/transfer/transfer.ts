import type { TransferEvent, TransferMigrationEvent, TransferRecord } from './transfer.events';

export interface ActiveTransferState {
  readonly status: TransferRecord['status'];
  readonly transfer: TransferRecord;
  readonly destination_account_id: string | null;
  /** Book transfers: the destination's log is read from after it for whether the credit landed (absent: from the start). */
  readonly destination_revision?: number;
}

/** `elsewhere`: a keyed stream whose reference an older log bound to the transfer in `transfer-<transfer_id>`. */
export type TransferState =
  | { readonly status: 'none' }
  | { readonly status: 'voided'; readonly id: string; readonly account_id: string; readonly reason: string }
  | { readonly status: 'elsewhere'; readonly transfer_id: string }
  | ActiveTransferState;

export const initialTransferState: TransferState = { status: 'none' };

export const isTransfer = (state: TransferState): state is ActiveTransferState =>
  state.status !== 'none' && state.status !== 'voided' && state.status !== 'elsewhere';

export function evolveTransfer(state: TransferState, event: TransferEvent | TransferMigrationEvent): TransferState {
  switch (event.type) {
    case 'TransferCreated': {
      const { transfer, destination_account_id, destination_revision } = event.data;
      return {
        status: 'pending',
        transfer,
        destination_account_id,
        ...(destination_revision !== undefined && { destination_revision }),
      };
    }
    case 'TransferVoided':
      return {
        status: 'voided',
        id: event.data.transfer_id,
        account_id: event.data.account_id,
        reason: event.data.reason,
      };
    case 'TransferReferenceMigrated':
      return state.status === 'none' ? { status: 'elsewhere', transfer_id: event.data.transfer_id } : state;
    case 'TransferProcessing':
    case 'TransferSucceeded':
    case 'TransferFailed':
    case 'TransferReversed':
    case 'TransferCancelled':
      if (!isTransfer(state)) return state;
      return { ...state, status: event.data.transfer.status, transfer: event.data.transfer };
    default:
      return state;
  }
}
