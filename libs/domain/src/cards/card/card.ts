import type { Spend } from '../controls/usage';
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
  /** Every transaction of the card by id (pending ones carry the usage holds). */
  readonly transactions: Readonly<Record<string, CardTransactionRecord>>;
  readonly updated: number;
}

export type CardState = { readonly status: 'none' } | IssuedCardState;

export const initialCardState: CardState = { status: 'none' };

/** fraud wins; frozen, used up (disposable) and deleted cards read `blocked` (spec state table). */
export function cardStatus(state: IssuedCardState): CardStatus {
  if (state.fraud) return 'fraud';
  return state.frozen || state.used_up || state.deleted !== null ? 'blocked' : 'active';
}

/** What counts against limits: pending transactions as holds, successful ones as used. */
export function spendsOf(state: IssuedCardState): Spend[] {
  const spends: Spend[] = [];
  for (const t of Object.values(state.transactions)) {
    if (t.status !== 'pending' && t.status !== 'successful') continue;
    spends.push({ id: t.id, amount: t.amount, mcc: t.merchant.mcc, at: t.created, state: t.status === 'pending' ? 'hold' : 'used' });
  }
  return spends;
}

function withTransaction(state: IssuedCardState, transaction: CardTransactionRecord): IssuedCardState {
  return { ...state, transactions: { ...state.transactions, [transaction.id]: transaction }, updated: Math.max(state.updated, transaction.updated) };
}

export function evolveCard(state: CardState, event: CardEvent): CardState {
  if (event.type === 'CardIssued') {
    return { status: 'issued', card: event.data, frozen: false, fraud: false, used_up: false, deleted: null, transactions: {}, updated: event.data.issued };
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
      return withTransaction(state, event.data.transaction);
  }
}
