import type { TransferEvent, TransferRecord } from './transfer.events';

export interface ActiveTransferState {
  readonly status: TransferRecord['status'];
  readonly transfer: TransferRecord;
  readonly destination_account_id: string | null;
  /** Book transfers: the destination's log is read from after it for whether the credit landed (absent: from the start). */
  readonly destination_revision?: number;
}

export type TransferState = { readonly status: 'none' } | { readonly status: 'voided'; readonly id: string; readonly account_id: string; readonly reason: string } | ActiveTransferState;

export const initialTransferState: TransferState = { status: 'none' };

export const isTransfer = (state: TransferState): state is ActiveTransferState => state.status !== 'none' && state.status !== 'voided';

export function evolveTransfer(state: TransferState, event: TransferEvent): TransferState {
  switch (event.type) {
    case 'TransferCreated': {
      const { transfer, destination_account_id, destination_revision } = event.data;
      return { status: 'pending', transfer, destination_account_id, ...(destination_revision !== undefined && { destination_revision }) };
    }
    case 'TransferVoided':
      return { status: 'voided', id: event.data.transfer_id, account_id: event.data.account_id, reason: event.data.reason };
    case 'TransferProcessing':
    case 'TransferSucceeded':
    case 'TransferFailed':
    case 'TransferReversed':
      if (!isTransfer(state)) return state;
      return { ...state, status: event.data.transfer.status, transfer: event.data.transfer };
    default:
      return state;
  }
}
