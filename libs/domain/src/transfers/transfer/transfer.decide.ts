import { conflict, domainError, invalid, notFound, type Decider, type Decision, type DomainError } from '../../shared';
import { isValidAmount } from '../../accounts/currency';
import { isPaymentType } from '../payment-types';
import {
  EVENT_FOR_STATUS,
  type TransferEvent,
  type TransferIntent,
  type TransferMigrationEvent,
  type TransferStatus,
} from './transfer.events';
import { evolveTransfer, initialTransferState, isTransfer, type TransferState } from './transfer';

export type AdvanceTarget = Exclude<TransferStatus, 'pending'>;
/** What the sandbox endpoint moves a transfer to (decisions §6); a customer cancels with its own endpoint. */
export const ADVANCE_TARGETS: readonly AdvanceTarget[] = ['processing', 'successful', 'failed', 'reversed'];
/** The operator may also cancel (decisions §14). */
export const OPERATOR_ADVANCE_TARGETS: readonly AdvanceTarget[] = [...ADVANCE_TARGETS, 'cancelled'];

export type TransferCommand =
  | { readonly type: 'CreateTransfer'; readonly intent: TransferIntent; readonly now: number }
  | {
      readonly type: 'VoidTransfer';
      readonly transfer_id: string;
      readonly account_id: string;
      readonly reason: string;
      readonly now: number;
    }
  | {
      readonly type: 'AdvanceTransfer';
      readonly transfer_id: string;
      readonly to: AdvanceTarget;
      readonly status_reason?: string | null;
      /** Reversals: the source account's revision read before deciding (recorded on TransferReversed). */
      readonly account_revision?: number;
      readonly now: number;
    }
  | {
      /** The customer's cancel (decisions §14): scoped to the caller's entity, a free-text reason. */
      readonly type: 'CancelTransfer';
      readonly transfer_id: string;
      readonly entity_id: string;
      readonly reason: string | null;
      readonly now: number;
    };

/**
 * The lifecycle (decisions §6): a network may refuse a queued transfer before executing it
 * (pending → failed, e.g. `compliance_hold`), and only a delivered transfer can be reversed.
 */
export const TRANSITIONS: Readonly<Record<TransferStatus, readonly AdvanceTarget[]>> = {
  pending: ['processing', 'failed', 'cancelled'],
  processing: ['successful', 'failed'],
  successful: ['reversed'],
  failed: [],
  reversed: [],
  cancelled: [],
};

export const DESCRIPTION_MAX = 100;
export const UNIQUE_REFERENCE_MAX = 64;
export const STATUS_REASON_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** What a failure says when the caller gives no reason. */
export const DEFAULT_FAILURE_REASON = 'processing_error';
/** What a cancellation says when the caller gives no reason (decisions §14). */
export const DEFAULT_CANCEL_REASON = 'cancelled_by_request';
export const CANCEL_REASON_MAX = 100;

export function refuseIntent(intent: TransferIntent): DomainError | null {
  if (!isValidAmount(intent.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (!Number.isSafeInteger(intent.fee) || intent.fee < 0)
    return invalid('fee', 'fee must be a non-negative integer of minor units');
  if (!isPaymentType(intent.payment_type)) return invalid('payment_type', 'unknown payment type');
  if (intent.description !== null && intent.description.length > DESCRIPTION_MAX)
    return invalid('description', `at most ${DESCRIPTION_MAX} characters`);
  const ref = intent.unique_reference;
  if (ref.length < 1 || ref.length > UNIQUE_REFERENCE_MAX)
    return invalid('unique_reference', `1-${UNIQUE_REFERENCE_MAX} characters`);
  if (Object.values(intent.metadata).some((v) => typeof v !== 'string'))
    return invalid('metadata', 'metadata values must be strings');
  if ((intent.payment_type === 'book-transfer') !== (intent.destination_account_id !== null)) {
    return invalid('payment_detail_id', 'a book transfer, and only a book transfer, has a destination account');
  }
  return null;
}

function create(
  command: Extract<TransferCommand, { type: 'CreateTransfer' }>,
  state: TransferState,
): Decision<TransferEvent> {
  // The stream is taken (by this id: a retry, or by the reference's first transfer): nothing to
  // append; the caller compares the id in the state with its own.
  if (isTransfer(state) || state.status === 'elsewhere') return [];
  if (state.status === 'voided')
    return conflict('transfer_voided', `Transfer ${state.id} was voided (${state.reason})`);
  const refused = refuseIntent(command.intent);
  if (refused) return refused;
  const { destination_account_id, destination_revision, ...fields } = command.intent;
  const transfer = { ...fields, status: 'pending' as const, status_reason: null, updated: fields.created };
  return [
    {
      type: 'TransferCreated',
      data: { transfer, destination_account_id, ...(destination_revision !== undefined && { destination_revision }) },
    },
  ];
}

/** Kept for the folds and tests of older logs: no code path voids an id since issue 19. */
function voidTransfer(
  command: Extract<TransferCommand, { type: 'VoidTransfer' }>,
  state: TransferState,
): Decision<TransferEvent> {
  // Once created, a transfer is never voided; the caller reads the state and follows the transfer.
  if (state.status !== 'none') return [];
  const { transfer_id, account_id, reason, now } = command;
  return [{ type: 'TransferVoided', data: { transfer_id, account_id, reason, voided: now } }];
}

function advance(
  command: Extract<TransferCommand, { type: 'AdvanceTransfer' }>,
  state: TransferState,
): Decision<TransferEvent> {
  // A keyed stream holds the transfer its reference went to; an id with another time part is not it.
  if (!isTransfer(state) || state.transfer.id !== command.transfer_id) return notFound('transfer', command.transfer_id);
  const { to } = command;
  if (!TRANSITIONS[state.status].includes(to)) {
    return domainError('conflict', 'invalid_transition', `A ${state.status} transfer cannot become ${to}`, {
      details: { current_status: state.status, allowed: TRANSITIONS[state.status] },
    });
  }
  // The destination was credited from the same ledger; handing the source its money back too would create money.
  if (to === 'reversed' && state.destination_account_id !== null) {
    return conflict(
      'book_transfer_not_reversible',
      'A book transfer settles between accounts of the organization and cannot be reversed',
    );
  }
  // A book transfer is settled by the request that created it; a cancel could only race that request.
  if (to === 'cancelled' && state.destination_account_id !== null)
    return conflict('book_transfer_not_cancellable', 'A book transfer settles at once and cannot be cancelled');
  const reason =
    command.status_reason ??
    (to === 'failed' ? DEFAULT_FAILURE_REASON : to === 'cancelled' ? DEFAULT_CANCEL_REASON : null);
  if (reason !== null && !STATUS_REASON_PATTERN.test(reason))
    return invalid('status_reason', 'status_reason must be snake_case, at most 64 characters');
  const status_reason = to === 'processing' || to === 'successful' ? null : reason;
  const transfer = { ...state.transfer, status: to, status_reason, updated: command.now };
  const revision =
    to === 'reversed' && command.account_revision !== undefined ? { account_revision: command.account_revision } : {};
  return [{ type: EVENT_FOR_STATUS[to], data: { transfer, ...revision } } as TransferEvent];
}

/**
 * Only a pending payout can be taken back (decisions §14): once the rail has it (processing) or it
 * ended, or for a book transfer (settled at once), the answer is `invalid_state` and nothing is
 * written. Another entity's transfer does not exist for the caller.
 */
function cancel(
  command: Extract<TransferCommand, { type: 'CancelTransfer' }>,
  state: TransferState,
): Decision<TransferEvent> {
  const { transfer_id, entity_id, reason, now } = command;
  if (!isTransfer(state) || state.transfer.id !== transfer_id || state.transfer.entity_id !== entity_id)
    return notFound('transfer', transfer_id);
  if (state.status !== 'pending' || state.destination_account_id !== null) {
    const why =
      state.destination_account_id !== null
        ? 'A book transfer settles at once'
        : `A ${state.status} transfer has left or ended`;
    return domainError('conflict', 'invalid_state', `${why}: only a pending payout can be cancelled`, {
      details: { current_status: state.status },
    });
  }
  if (reason !== null && (reason.length < 1 || reason.length > CANCEL_REASON_MAX))
    return invalid('reason', `reason must be 1-${CANCEL_REASON_MAX} characters`);
  const transfer = {
    ...state.transfer,
    status: 'cancelled' as const,
    status_reason: reason ?? DEFAULT_CANCEL_REASON,
    updated: now,
  };
  return [{ type: 'TransferCancelled', data: { transfer } }];
}

export function decideTransfer(command: TransferCommand, state: TransferState): Decision<TransferEvent> {
  switch (command.type) {
    case 'CreateTransfer':
      return create(command, state);
    case 'VoidTransfer':
      return voidTransfer(command, state);
    case 'AdvanceTransfer':
      return advance(command, state);
    case 'CancelTransfer':
      return cancel(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const transferDecider: Decider<TransferCommand, TransferEvent, TransferState> = {
  initialState: initialTransferState,
  decide: decideTransfer,
  evolve: evolveTransfer,
};

export interface MigrateTransferReference {
  readonly transfer_id: string;
  readonly account_id: string;
  readonly unique_reference: string;
  readonly now: number;
}

/**
 * The older-log migration's one command, on a keyed stream, with the transfer's own fold: once,
 * and only on an empty stream (a reference a new transfer took since keeps its own).
 */
export const transferMigrationDecider: Decider<MigrateTransferReference, TransferMigrationEvent, TransferState> = {
  initialState: initialTransferState,
  decide({ transfer_id, account_id, unique_reference, now }, state) {
    return state.status === 'none'
      ? [{ type: 'TransferReferenceMigrated', data: { transfer_id, account_id, unique_reference, migrated: now } }]
      : [];
  },
  evolve: evolveTransfer,
};
