import { emptyMap, get, remove, set, values, type PersistentMap } from '../../shared/persistent-map';
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
  /**
   * Open (pending) transactions by id, in a persistent map (one costs O(log n) however many are
   * open). A finished one leaves the state, so the state never grows with the card's history: the
   * transaction's index stream says it exists, and not pending here means it is finished; its
   * record is in the event that finished it (and the read models).
   */
  readonly pending: PersistentMap<CardTransactionRecord>;
  /**
   * Pending transactions whose endpoint was asked (decisions §16), by id: asked once, never again;
   * left with the transaction when it finishes, so this too never grows with history.
   */
  readonly asked: PersistentMap<number>;
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

/** Whether the entity's endpoint was asked about this pending transaction (decisions §16). */
export const wasAsked = (state: IssuedCardState, id: string): boolean =>
  get(state.asked ?? emptyMap(), id) !== undefined;

/** The card transaction while it is pending; a finished one is no longer in the state. */
export const pendingTransaction = (state: IssuedCardState, id: string): CardTransactionRecord | undefined =>
  get(state.pending, id);

const closing = (state: IssuedCardState, t: CardTransactionRecord) => ({
  pending: remove(state.pending, t.id),
  asked: remove(state.asked ?? emptyMap(), t.id),
});

type TransactionEvent = Extract<CardEvent, { data: { transaction: CardTransactionRecord } }>;

function evolveTransaction(state: IssuedCardState, event: TransactionEvent): IssuedCardState {
  const t = event.data.transaction;
  const held = pendingTransaction(state, t.id);
  const updated = Math.max(state.updated, t.updated);
  const mcc = t.merchant.mcc;
  switch (event.type) {
    case 'CardAuthorizationHeld':
      return {
        ...state,
        pending: set(state.pending, t.id, t),
        usage: holdUsage(state.usage, t.created, mcc, t.amount),
        updated,
      };
    case 'CardAuthorizationDeclined':
      return { ...state, updated };
    case 'CardAuthorizationApproved':
      // A partial approval: the usage lets go of the whole hold and holds what was approved.
      return held
        ? {
            ...state,
            pending: set(state.pending, t.id, t),
            usage: holdUsage(releaseUsage(state.usage, t.created, mcc, held.amount), t.created, mcc, t.amount),
            updated,
          }
        : state;
    case 'CardTransactionCaptured':
      return held
        ? {
            ...state,
            ...closing(state, t),
            usage: captureUsage(state.usage, t.created, mcc, held.amount, t.amount),
            updated,
          }
        : state;
    case 'CardHoldDeclined':
    case 'CardTransactionReversed':
      return held
        ? { ...state, ...closing(state, t), usage: releaseUsage(state.usage, t.created, mcc, held.amount), updated }
        : state;
  }
}

export function evolveCard(state: CardState, event: CardEvent): CardState {
  if (event.type === 'CardIssued') {
    return {
      status: 'issued',
      card: event.data,
      frozen: false,
      fraud: false,
      used_up: false,
      deleted: null,
      pending: emptyMap(),
      asked: emptyMap(),
      usage: EMPTY_LEDGER,
      updated: event.data.issued,
    };
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
    case 'CardAuthorizationRequested':
      return { ...state, asked: set(state.asked ?? emptyMap(), event.data.transaction_id, event.data.at) };
    case 'CardReassigned':
      return { ...state, card: { ...state.card, account_id: event.data.account_id }, updated: event.data.at };
    default:
      return evolveTransaction(state, event);
  }
}

/** The card's pending transactions (tests, audits). */
export const pendingTransactions = (state: IssuedCardState): CardTransactionRecord[] => values(state.pending);
