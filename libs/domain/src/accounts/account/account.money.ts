import { conflict, invalid, rule, type Decision } from '../../shared';
import { isValidAmount } from '../currency';
import type { AccountEvent } from './account.events';
import { balanceOf, heldTransferFor, openHold, type OpenAccountState } from './account';
import type { AccountCommand } from './account.decide';

type Command<T extends AccountCommand['type']> = Extract<AccountCommand, { type: T }>;

/**
 * Money commands keyed by the transfer id: placing, closing, reversing or receiving the same id
 * again is a no-op, so process managers and retried requests may repeat any of them. A hold is
 * placed only while open here or while its origin has not moved on (`origin_done`, read by the
 * caller after this state was folded): a closed hold is no longer in the state, and its origin
 * always moved on before it could close, so a late repeat never holds the money twice.
 */
export function placeHold(command: Command<'PlaceHold'>, state: OpenAccountState): Decision<AccountEvent> {
  if (command.origin_done || openHold(state, command.hold_id)) return [];
  const { transfer } = command;
  if (transfer && heldTransferFor(state, transfer.unique_reference)) return [];
  if (
    transfer &&
    (transfer.id !== command.hold_id || transfer.amount !== command.amount || transfer.fee !== command.fee)
  ) {
    return invalid('transfer', 'a transfer is held under its own id, for its amount + fee');
  }
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (!Number.isSafeInteger(command.fee) || command.fee < 0)
    return invalid('fee', 'fee must be a non-negative integer of minor units');
  const total = command.amount + command.fee;
  const { available, current } = balanceOf(state);
  if (!Number.isSafeInteger(total) || total > available)
    return rule('insufficient_funds', `Available balance ${available} is below ${total} (amount + fee)`);
  const { account_id, hold_id, amount, fee, now } = command;
  const balance_after = { available: available - total, current };
  return [
    {
      type: 'FundsHeld',
      data: { account_id, hold_id, amount, fee, ...(transfer && { transfer }), balance_after, held: now },
    },
  ];
}

/** Releasing or settling a hold that is no longer open is a no-op: process managers may repeat. */
export function closeHold(
  command: Command<'ReleaseHold' | 'SettleHold'>,
  state: OpenAccountState,
): Decision<AccountEvent> {
  const total = openHold(state, command.hold_id)?.total;
  if (total === undefined) return [];
  const { available, current } = balanceOf(state);
  const base = { account_id: command.account_id, hold_id: command.hold_id, total };
  if (command.type === 'ReleaseHold')
    return [
      {
        type: 'HoldReleased',
        data: { ...base, balance_after: { available: available + total, current }, released: command.now },
      },
    ];
  return [
    {
      type: 'HoldSettled',
      data: { ...base, balance_after: { available, current: current - total }, settled: command.now },
    },
  ];
}

/**
 * Credits back what a settled hold debited (amount + fee), once. The account keeps no closed holds
 * (they grow with history): the transfer's own stream says it succeeded (so its hold was settled,
 * or is settled first while still open) and what it held, and whether this log already holds the
 * credit is read from the account revision the reversal was decided at (TransferReversed's
 * `account_revision`), so the read is bounded by what happened since, never by the account's age.
 */
export function reverseHold(command: Command<'ReverseSettledHold'>, state: OpenAccountState): Decision<AccountEvent> {
  if (command.already_reversed) return [];
  if (openHold(state, command.hold_id))
    return conflict('hold_not_settled', `Hold ${command.hold_id} has not been settled, so nothing can be reversed`);
  if (!isValidAmount(command.total)) return invalid('total', 'total must be a positive integer of minor units');
  const { available, current } = balanceOf(state);
  if (current + command.total > Number.MAX_SAFE_INTEGER)
    return rule('balance_limit_exceeded', 'The balance would exceed the largest representable amount');
  const balance_after = { available: available + command.total, current: current + command.total };
  return [
    {
      type: 'HoldReversed',
      data: {
        account_id: command.account_id,
        hold_id: command.hold_id,
        total: command.total,
        balance_after,
        reversed: command.now,
      },
    },
  ];
}

/** The receiving side of a book transfer: a settled credit, once per sending transfer (the caller reads whether it landed). */
export function receiveBookTransfer(
  command: Command<'ReceiveBookTransfer'>,
  state: OpenAccountState,
): Decision<AccountEvent> {
  if (command.already_received) return [];
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (command.currency !== state.currency)
    return rule('currency_mismatch', `The account holds ${state.currency}, not ${command.currency}`);
  if (state.current + command.amount > Number.MAX_SAFE_INTEGER)
    return rule('balance_limit_exceeded', 'The balance would exceed the largest representable amount');
  const { available, current } = balanceOf(state);
  const { account_id, transfer_id, from_account_id, amount, currency, now } = command;
  return [
    {
      type: 'BookTransferReceived',
      data: {
        account_id,
        entity_id: state.entity_id,
        transfer_id,
        from_account_id,
        amount,
        currency,
        balance_after: { available: available + amount, current: current + amount },
        received: now,
      },
    },
  ];
}

/** Whether these events of an account's log credit the book transfer `transferId`: how a caller builds `already_received`. */
export const bookTransferReceivedIn = (events: readonly AccountEvent[], transferId: string): boolean =>
  events.some((e) => e.type === 'BookTransferReceived' && e.data.transfer_id === transferId);
