import type { Decider, Decision } from '../../shared';
import type { Balance } from '../account/account.events';
import type { Inflow } from '../account/account.inflows';

/**
 * `reference` unique per account for inflows (decisions §11): a reservation stream named after the
 * account and the reference, claimed with "no stream" expected, so of two racing records exactly
 * one reserves. It carries the whole inflow (its transaction id included) and the account's
 * revision when it was reserved, so whoever finds it unfinished (a duplicate, a retry after a
 * crash) credits that same inflow, and can tell whether it already landed by reading the account's
 * log from there on. Once credited, `InflowRecorded` keeps what a duplicate is answered with, so a
 * duplicate reads this stream only. A reservation is never released: a reference names one
 * transaction forever (there is no "voided" inflow: the checks run before reserving).
 */
export type InflowReferenceEvent =
  | {
      readonly type: 'InflowReferenceReserved';
      readonly data: {
        readonly account_id: string;
        readonly reference: string;
        readonly transaction_id: string;
        readonly inflow: Inflow;
        /** The account stream's revision the checks were made on: its credit can only come after. */
        readonly account_revision: number;
        readonly reserved: number;
      };
    }
  | {
      readonly type: 'InflowRecorded';
      readonly data: {
        readonly account_id: string;
        readonly reference: string;
        readonly transaction_id: string;
        /** The `AccountFunded` event's revision in the account stream (the statement entry's id). */
        readonly revision: number;
        readonly balance_after: Balance;
        readonly funded: number;
      };
    };

/** The credit as the account's log has it: enough to show the statement entry again. */
export interface RecordedInflow extends Inflow {
  readonly revision: number;
  readonly balance_after: Balance;
  readonly funded: number;
}

export type InflowReferenceState =
  | { readonly status: 'free' }
  | { readonly status: 'reserved'; readonly inflow: Inflow; readonly account_revision: number }
  | {
      readonly status: 'recorded';
      readonly inflow: Inflow;
      readonly account_revision: number;
      readonly recorded: RecordedInflow;
    };

export type InflowReferenceCommand =
  | {
      readonly type: 'ReserveInflowReference';
      readonly inflow: Inflow;
      readonly account_revision: number;
      readonly now: number;
    }
  | {
      readonly type: 'MarkInflowRecorded';
      readonly transaction_id: string;
      readonly revision: number;
      readonly balance_after: Balance;
      readonly funded: number;
    };

function decide(command: InflowReferenceCommand, state: InflowReferenceState): Decision<InflowReferenceEvent> {
  switch (command.type) {
    case 'ReserveInflowReference': {
      // Taken: nothing to append; the caller compares the reserved transaction id with its own.
      if (state.status !== 'free') return [];
      const { inflow, account_revision, now } = command;
      return [
        {
          type: 'InflowReferenceReserved',
          data: {
            account_id: inflow.account_id,
            reference: inflow.reference,
            transaction_id: inflow.transaction_id,
            inflow,
            account_revision,
            reserved: now,
          },
        },
      ];
    }
    case 'MarkInflowRecorded': {
      // Only the reserved transaction, once: a duplicate finishing it too appends nothing.
      if (state.status !== 'reserved' || state.inflow.transaction_id !== command.transaction_id) return [];
      const { account_id, reference } = state.inflow;
      const { transaction_id, revision, balance_after, funded } = command;
      return [
        { type: 'InflowRecorded', data: { account_id, reference, transaction_id, revision, balance_after, funded } },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function evolve(state: InflowReferenceState, event: InflowReferenceEvent): InflowReferenceState {
  switch (event.type) {
    case 'InflowReferenceReserved':
      return { status: 'reserved', inflow: event.data.inflow, account_revision: event.data.account_revision };
    case 'InflowRecorded': {
      if (state.status === 'free') return state;
      const { revision, balance_after, funded } = event.data;
      return {
        status: 'recorded',
        inflow: state.inflow,
        account_revision: state.account_revision,
        recorded: { ...state.inflow, revision, balance_after, funded },
      };
    }
    default:
      return state;
  }
}

export const inflowReferenceDecider: Decider<InflowReferenceCommand, InflowReferenceEvent, InflowReferenceState> = {
  initialState: { status: 'free' },
  decide,
  evolve,
};
