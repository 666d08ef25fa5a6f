import type { Decider, Decision } from '../../shared';
import type { TransferIntent } from '../transfer/transfer.events';

/**
 * Idempotency per account on `unique_reference`: a reservation stream named after the account and
 * the reference, claimed after the transfer's hold (issue 19) and kept for good, so a duplicate
 * finds the original after its hold closed. The first claim is appended with "no stream" expected,
 * so of two racing claims exactly one reserves. It carries the whole intent, so whoever finds it
 * unfinished (a duplicate, the recovery process manager) can finish it identically. Older logs
 * reserved before holding and released a reservation whose transfer id was voided (hold refused).
 */
export type TransferReferenceEvent =
  | {
      readonly type: 'TransferReferenceReserved';
      readonly data: {
        readonly account_id: string;
        readonly unique_reference: string;
        readonly transfer_id: string;
        readonly intent: TransferIntent;
        readonly reserved: number;
      };
    }
  | {
      readonly type: 'TransferReferenceReleased';
      readonly data: {
        readonly account_id: string;
        readonly unique_reference: string;
        readonly transfer_id: string;
        readonly released: number;
      };
    };

export type TransferReferenceState =
  | { readonly status: 'free' }
  | {
      readonly status: 'reserved';
      readonly transfer_id: string;
      readonly intent: TransferIntent;
      readonly reserved: number;
    };

export type TransferReferenceCommand =
  | { readonly type: 'ReserveTransferReference'; readonly intent: TransferIntent; readonly now: number }
  | { readonly type: 'ReleaseTransferReference'; readonly transfer_id: string; readonly now: number };

function decide(command: TransferReferenceCommand, state: TransferReferenceState): Decision<TransferReferenceEvent> {
  switch (command.type) {
    case 'ReserveTransferReference': {
      // Taken: nothing to append; the caller compares the reserved id with its own.
      if (state.status === 'reserved') return [];
      const { intent, now } = command;
      return [
        {
          type: 'TransferReferenceReserved',
          data: {
            account_id: intent.account_id,
            unique_reference: intent.unique_reference,
            transfer_id: intent.id,
            intent,
            reserved: now,
          },
        },
      ];
    }
    case 'ReleaseTransferReference': {
      // Only the id it holds can be released; a stale release (the reference moved on) is a no-op.
      if (state.status !== 'reserved' || state.transfer_id !== command.transfer_id) return [];
      const { account_id, unique_reference } = state.intent;
      return [
        {
          type: 'TransferReferenceReleased',
          data: { account_id, unique_reference, transfer_id: command.transfer_id, released: command.now },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function evolve(state: TransferReferenceState, event: TransferReferenceEvent): TransferReferenceState {
  switch (event.type) {
    case 'TransferReferenceReserved':
      return {
        status: 'reserved',
        transfer_id: event.data.transfer_id,
        intent: event.data.intent,
        reserved: event.data.reserved,
      };
    case 'TransferReferenceReleased':
      return { status: 'free' };
    default:
      return state;
  }
}

export const transferReferenceDecider: Decider<
  TransferReferenceCommand,
  TransferReferenceEvent,
  TransferReferenceState
> = {
  initialState: { status: 'free' },
  decide,
  evolve,
};
