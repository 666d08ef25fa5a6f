import { conflict, domainError, type Decision } from '../../shared';
import { currencyInfo } from '../../accounts/currency';
import type { MccGroups } from '../controls/controls';
import { mccBlocked, withinLimits } from '../controls/usage';
import { convert, type FxQuote } from '../fx/fx';
import type { CardTransactionRecord, DeclineReason, Merchant } from './card-transaction';
import type { CardEvent } from './card.events';
import { cardStatus, pendingTransaction, type IssuedCardState } from './card';

export interface AuthorizeCard {
  readonly type: 'AuthorizeCard';
  readonly card_id: string;
  readonly transaction_id: string;
  readonly amount: number;
  readonly merchant: Merchant;
  /** The account the card draws on now, and the conversion into its currency (null: same currency). */
  readonly account_id: string;
  readonly fx: FxQuote | null;
  readonly groups: MccGroups;
  readonly now: number;
}
export interface DeclineHeldAuthorization {
  readonly type: 'DeclineHeldAuthorization';
  readonly card_id: string;
  readonly transaction_id: string;
  readonly reason: DeclineReason;
  readonly now: number;
}
export interface CaptureCardTransaction {
  readonly type: 'CaptureCardTransaction';
  readonly card_id: string;
  readonly transaction_id: string;
  /** Null: the whole held amount. */
  readonly amount: number | null;
  readonly now: number;
}
export interface ReverseCardTransaction {
  readonly type: 'ReverseCardTransaction';
  readonly card_id: string;
  readonly transaction_id: string;
  readonly now: number;
}

/**
 * The card's part of an authorization, decided on the card stream alone: status, the disposable
 * one-shot rule, MCC blocks and every limit against the usage this stream holds. Approved, the
 * usage carries it as a hold at once, so a concurrent authorization sees it (docs/decisions/cards.md).
 */
function refusal(command: AuthorizeCard, state: IssuedCardState): DeclineReason | null {
  if (cardStatus(state) !== 'active') return 'card_blocked';
  // One shot: a success uses it up (CardUsedUp); while its authorization is pending, nothing else.
  if (state.card.type === 'disposable' && state.pending.size > 0) return 'card_blocked';
  const { controls, amount } = state.card;
  if (mccBlocked(controls, command.groups, command.merchant.mcc)) return 'mcc_blocked';
  const ctx = { amount, controls, usage: state.usage, groups: command.groups, now: command.now };
  return withinLimits(ctx, command.amount, command.merchant.mcc) ? null : 'limit_exceeded';
}

export function authorize(command: AuthorizeCard, state: IssuedCardState): Decision<CardEvent> {
  // The id is drawn per request and indexed before this decision; a repeat while pending is a no-op.
  if (pendingTransaction(state, command.transaction_id)) return [];
  // Converted and held for the account read before deciding: a reassignment in between re-runs it.
  if (command.account_id !== state.card.account_id) return conflict('card_reassigned', `Card ${command.card_id} moved to another account during the authorization; retry`);
  const reason = refusal(command, state);
  const { card } = state;
  const transaction: CardTransactionRecord = {
    id: command.transaction_id,
    card_id: card.card_id,
    card_name: card.name,
    account_id: command.account_id,
    entity_id: card.entity_id,
    amount: command.amount,
    currency: card.currency,
    status: reason ? 'declined' : 'pending',
    status_reason: reason,
    merchant: command.merchant,
    fx: command.fx,
    account_amount: command.fx ? command.fx.account_amount : command.amount,
    created: command.now,
    updated: command.now,
  };
  return [{ type: reason ? 'CardAuthorizationDeclined' : 'CardAuthorizationHeld', data: { card_id: card.card_id, transaction } }];
}

/**
 * The state keeps pending transactions only: the caller found the transaction's index stream (so
 * it exists), and one that is not pending here was finished (captured, reversed or declined).
 */
function pending(state: IssuedCardState, id: string): CardTransactionRecord | ReturnType<typeof conflict> {
  return pendingTransaction(state, id) ?? conflict('card_transaction_not_pending', `Card transaction ${id} is no longer pending`);
}

/** The account refused the hold (its available balance): the card's usage lets go of it. */
export function declineHeld(command: DeclineHeldAuthorization, state: IssuedCardState): Decision<CardEvent> {
  const transaction = pendingTransaction(state, command.transaction_id);
  if (!transaction) return [];
  const declined = { ...transaction, status: 'declined' as const, status_reason: command.reason, updated: command.now };
  return [{ type: 'CardHoldDeclined', data: { card_id: command.card_id, transaction: declined } }];
}

/** What `amount` of the card's currency is in the account's, at the authorization's rate. */
export function accountAmountFor(transaction: CardTransactionRecord, amount: number): number {
  if (amount === transaction.amount) return transaction.account_amount;
  if (!transaction.fx) return amount;
  const from = currencyInfo(transaction.currency)?.minor_units ?? 2;
  const to = currencyInfo(transaction.fx.account_currency)?.minor_units ?? 2;
  return convert(amount, transaction.fx.rate, from, to);
}

export function captureTransaction(command: CaptureCardTransaction, state: IssuedCardState): Decision<CardEvent> {
  const found = pending(state, command.transaction_id);
  if ('kind' in found) return found;
  const amount = command.amount ?? found.amount;
  if (!Number.isSafeInteger(amount) || amount < 1)
    return domainError('validation', 'validation_error', 'amount must be a positive integer', { errors: [{ field: 'amount', message: 'must be a positive integer' }] });
  if (amount > found.amount)
    return domainError('rule', 'amount_exceeds_hold', `Capture of ${amount} exceeds the held ${found.amount}`, { errors: [{ field: 'amount', message: `at most ${found.amount}` }] });
  const account_amount = accountAmountFor(found, amount);
  const fx = found.fx ? { ...found.fx, account_amount } : null;
  const captured = { ...found, amount, account_amount, fx, status: 'successful' as const, updated: command.now };
  const events: CardEvent[] = [{ type: 'CardTransactionCaptured', data: { card_id: command.card_id, transaction: captured } }];
  // A disposable card is spent by its first success, whenever the capture comes.
  if (state.card.type === 'disposable' && !state.used_up) events.push({ type: 'CardUsedUp', data: { card_id: command.card_id, at: command.now } });
  return events;
}

export function reverseTransaction(command: ReverseCardTransaction, state: IssuedCardState): Decision<CardEvent> {
  const found = pending(state, command.transaction_id);
  if ('kind' in found) return found;
  const reversed = { ...found, status: 'reversed' as const, updated: command.now };
  return [{ type: 'CardTransactionReversed', data: { card_id: command.card_id, transaction: reversed } }];
}
