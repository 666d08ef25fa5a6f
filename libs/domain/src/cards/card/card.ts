import { lookup, type History } from '../../accounts/account/account';
import { captureUsage, EMPTY_LEDGER, holdUsage, releaseUsage, type UsageLedger } from '../controls/ledger';
import type { CardTransactionRecord } from './card-transaction';
import type { CardEvent, IssuedCard } from './card.events';

export type CardStatus = 'active' | 'blocked' | 'fraud';

export interface IssuedCardState {
  readonly status: 'issued';
  readonly card: IssuedCard;
  readonly frozen: boolean;
  readonly fraud: boolean;
  readonly used_up: boolean;
  readonly deleted: number | null;
  /** Open (pending) transactions by id: few at a time, so copying them per event stays cheap. */
  readonly pending: Readonly<Record<string, CardTransactionRecord>>;
  /** Finished transactions (successful, declined, reversed), newest first: appending is O(1). */
  readonly closed: History<CardTransactionRecord>;
  /** What limits are decided on: pending ones as holds, successful ones as used. */
  readonly usage: UsageLedger;
  readonly updated: number;
}

export type CardState = { readonly status: 'none' } | IssuedCardState;

export const initialCardState: CardState = { status: 'none' };

/** fraud wins; frozen, used up (disposable) and deleted cards read `blocked` (spec state table). */
export function cardStatus(state: IssuedCardState): CardStatus {
  if (state.fraud) return 'fraud';
  return state.frozen || state.used_up || state.deleted !== null ? 'blocked' : 'active';
}

export const transactionOf = (state: IssuedCardState, id: string): CardTransactionRecord | undefined => state.pending[id] ?? lookup(state.closed, id);

function withoutPending(state: IssuedCardState, id: string): Readonly<Record<string, CardTransactionRecord>> {
  const { [id]: _gone, ...rest } = state.pending;
  return rest;
}

const closing = (state: IssuedCardState, t: CardTransactionRecord) => ({ pending: withoutPending(state, t.id), closed: { id: t.id, value: t, previous: state.closed } });

type TransactionEvent = Extract<CardEvent, { data: { transaction: CardTransactionRecord } }>;

function evolveTransaction(state: IssuedCardState, event: TransactionEvent): IssuedCardState {
  const t = event.data.transaction;
  const held = state.pending[t.id];
  const updated = Math.max(state.updated, t.updated);
  const mcc = t.merchant.mcc;
  switch (event.type) {
    case 'CardAuthorizationHeld':
      return { ...state, pending: { ...state.pending, [t.id]: t }, usage: holdUsage(state.usage, t.created, mcc, t.amount), updated };
    case 'CardAuthorizationDeclined':
      return { ...state, closed: { id: t.id, value: t, previous: state.closed }, updated };
    case 'CardTransactionCaptured':
      return held ? { ...state, ...closing(state, t), usage: captureUsage(state.usage, t.created, mcc, held.amount, t.amount), updated } : state;
    case 'CardHoldDeclined':
    case 'CardTransactionReversed':
      return held ? { ...state, ...closing(state, t), usage: releaseUsage(state.usage, t.created, mcc, held.amount), updated } : state;
  }
}

export function evolveCard(state: CardState, event: CardEvent): CardState {
  if (event.type === 'CardIssued') {
    return { status: 'issued', card: event.data, frozen: false, fraud: false, used_up: false, deleted: null, pending: {}, closed: null, usage: EMPTY_LEDGER, updated: event.data.issued };
  }
  if (state.status !== 'issued') return state;
  switch (event.type) {
    case 'CardFrozen':
      return { ...state, frozen: true, updated: event.data.at };
    case 'CardUnfrozen':
      return { ...state, frozen: false, updated: event.data.at };
    case 'CardMarkedFraud':
      return { ...state, fraud: true, updated: event.data.at };
    case 'CardDeleted':
      return { ...state, deleted: event.data.at, updated: event.data.at };
    case 'CardUsedUp':
      return { ...state, used_up: true, updated: event.data.at };
    case 'CardReassigned':
      return { ...state, card: { ...state.card, account_id: event.data.account_id }, updated: event.data.at };
    default:
      return evolveTransaction(state, event);
  }
}

/** Every transaction of the card, pending first then newest finished first (tests, audits). */
export function allTransactions(state: IssuedCardState): CardTransactionRecord[] {
  const out = Object.values(state.pending);
  for (let node = state.closed; node; node = node.previous) out.push(node.value);
  return out;
}
