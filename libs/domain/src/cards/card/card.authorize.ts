import { conflict, domainError, type Decision } from '../../shared';
import { currencyInfo } from '../../accounts/currency';
import type { MccGroups } from '../controls/controls';
import { mccBlocked, withinLimits } from '../controls/usage';
import { convert, type FxQuote } from '../fx/fx';
import {
  PLATFORM_DECISION,
  type AuthorizationDecision,
  type CardTransactionRecord,
  type DeclineReason,
  type Merchant,
} from './card-transaction';
import type { CardEvent } from './card.events';
import { cardStatus, pendingTransaction, wasAsked, type IssuedCardState } from './card';

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
/** Decisions §16: recorded before the entity's endpoint is asked, so it is asked once at most. */
export interface RequestCardAuthorization {
  readonly type: 'RequestCardAuthorization';
  readonly card_id: string;
  readonly transaction_id: string;
  readonly now: number;
}
/** Decisions §16: the endpoint's answer, or the card's fallback when none valid came. */
export interface DecideCardAuthorization {
  readonly type: 'DecideCardAuthorization';
  readonly card_id: string;
  readonly transaction_id: string;
  readonly approved: boolean;
  /** A partial approval (1 ≤ amount ≤ requested); null: the whole amount. */
  readonly amount: number | null;
  readonly authorization: AuthorizationDecision;
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
  if (command.account_id !== state.card.account_id)
    return conflict(
      'card_reassigned',
      `Card ${command.card_id} moved to another account during the authorization; retry`,
    );
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
    authorization: PLATFORM_DECISION,
    created: command.now,
    updated: command.now,
  };
  return [
    {
      type: reason ? 'CardAuthorizationDeclined' : 'CardAuthorizationHeld',
      data: { card_id: card.card_id, transaction },
    },
  ];
}

/**
 * The state keeps pending transactions only: the caller found the transaction's index stream (so
 * it exists), and one that is not pending here was finished (captured, reversed or declined).
 */
function pending(state: IssuedCardState, id: string): CardTransactionRecord | ReturnType<typeof conflict> {
  return (
    pendingTransaction(state, id) ??
    conflict('card_transaction_not_pending', `Card transaction ${id} is no longer pending`)
  );
}

/** The account refused the hold (its available balance): the card's usage lets go of it. */
export function declineHeld(command: DeclineHeldAuthorization, state: IssuedCardState): Decision<CardEvent> {
  const transaction = pendingTransaction(state, command.transaction_id);
  if (!transaction) return [];
  const declined = { ...transaction, status: 'declined' as const, status_reason: command.reason, updated: command.now };
  return [{ type: 'CardHoldDeclined', data: { card_id: command.card_id, transaction: declined } }];
}

/**
 * Asking the endpoint is recorded on the card stream first (appended at the revision it was
 * decided on): of two requests racing for the same transaction one records it, and a transaction
 * already asked (its request died waiting) is never asked again: its caller takes the fallback.
 */
export function requestAuthorization(command: RequestCardAuthorization, state: IssuedCardState): Decision<CardEvent> {
  const transaction = pendingTransaction(state, command.transaction_id);
  if (!transaction || wasAsked(state, command.transaction_id)) return [];
  return [
    {
      type: 'CardAuthorizationRequested',
      data: { card_id: command.card_id, transaction_id: command.transaction_id, at: command.now },
    },
  ];
}

/**
 * One outcome per asked transaction: the first answer recorded wins (a transaction no longer
 * pending, or already decided by the endpoint or the fallback, records nothing more).
 */
export function decideAuthorization(command: DecideCardAuthorization, state: IssuedCardState): Decision<CardEvent> {
  const transaction = pendingTransaction(state, command.transaction_id);
  if (!transaction || (transaction.authorization && transaction.authorization.source !== 'platform')) return [];
  const { authorization, now, card_id } = command;
  if (!command.approved) {
    const declined = {
      ...transaction,
      status: 'declined' as const,
      status_reason: 'declined_by_endpoint' as const,
      authorization,
      updated: now,
    };
    return [{ type: 'CardHoldDeclined', data: { card_id, transaction: declined } }];
  }
  const amount = command.amount === null ? transaction.amount : Math.min(command.amount, transaction.amount);
  const account_amount = accountAmountFor(transaction, amount);
  const fx = transaction.fx ? { ...transaction.fx, account_amount } : null;
  return [
    {
      type: 'CardAuthorizationApproved',
      data: { card_id, transaction: { ...transaction, amount, account_amount, fx, authorization, updated: now } },
    },
  ];
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
    return domainError('validation', 'validation_error', 'amount must be a positive integer', {
      errors: [{ field: 'amount', message: 'must be a positive integer' }],
    });
  if (amount > found.amount)
    return domainError('rule', 'amount_exceeds_hold', `Capture of ${amount} exceeds the held ${found.amount}`, {
      errors: [{ field: 'amount', message: `at most ${found.amount}` }],
    });
  const account_amount = accountAmountFor(found, amount);
  const fx = found.fx ? { ...found.fx, account_amount } : null;
  const captured = { ...found, amount, account_amount, fx, status: 'successful' as const, updated: command.now };
  const events: CardEvent[] = [
    { type: 'CardTransactionCaptured', data: { card_id: command.card_id, transaction: captured } },
  ];
  // A disposable card is spent by its first success, whenever the capture comes.
  if (state.card.type === 'disposable' && !state.used_up)
    events.push({ type: 'CardUsedUp', data: { card_id: command.card_id, at: command.now } });
  return events;
}

export function reverseTransaction(command: ReverseCardTransaction, state: IssuedCardState): Decision<CardEvent> {
  const found = pending(state, command.transaction_id);
  if ('kind' in found) return found;
  const reversed = { ...found, status: 'reversed' as const, updated: command.now };
  return [{ type: 'CardTransactionReversed', data: { card_id: command.card_id, transaction: reversed } }];
}
