import { conflict, notFound, type Decider, type Decision } from '../../shared';
import type { CardEvent, IssuedCard } from './card.events';
import { evolveCard, initialCardState, type CardState, type IssuedCardState } from './card';
import {
  authorize,
  captureTransaction,
  declineHeld,
  decideAuthorization,
  requestAuthorization,
  reverseTransaction,
  type AuthorizeCard,
  type CaptureCardTransaction,
  type DeclineHeldAuthorization,
  type DecideCardAuthorization,
  type RequestCardAuthorization,
  type ReverseCardTransaction,
} from './card.authorize';

export type CardCommand =
  | { readonly type: 'IssueCard'; readonly card: IssuedCard }
  | {
      readonly type: 'FreezeCard' | 'UnfreezeCard' | 'MarkCardFraud' | 'DeleteCard';
      readonly card_id: string;
      readonly now: number;
    }
  | { readonly type: 'ReassignCard'; readonly card_id: string; readonly account_id: string; readonly now: number }
  | AuthorizeCard
  | DeclineHeldAuthorization
  | RequestCardAuthorization
  | DecideCardAuthorization
  | CaptureCardTransaction
  | ReverseCardTransaction;

type Lifecycle = Extract<CardCommand, { type: 'FreezeCard' | 'UnfreezeCard' | 'MarkCardFraud' | 'DeleteCard' }>;

const at = (command: { card_id: string; now: number }) => ({ card_id: command.card_id, at: command.now });

function freeze(command: Lifecycle, state: IssuedCardState): Decision<CardEvent> {
  if (state.deleted !== null) return conflict('card_deleted', `Card ${command.card_id} is deleted`);
  if (state.fraud) return conflict('card_fraud', `Card ${command.card_id} is marked fraud`);
  return state.frozen ? [] : [{ type: 'CardFrozen', data: at(command) }];
}

function unfreeze(command: Lifecycle, state: IssuedCardState): Decision<CardEvent> {
  if (state.deleted !== null) return conflict('card_deleted', `Card ${command.card_id} is deleted`);
  if (state.fraud)
    return conflict('card_fraud', `Card ${command.card_id} is marked fraud; there is no way out of fraud`);
  if (state.used_up) return conflict('card_used', `Disposable card ${command.card_id} was used and stays blocked`);
  return state.frozen ? [{ type: 'CardUnfrozen', data: at(command) }] : [];
}

function reassign(
  command: Extract<CardCommand, { type: 'ReassignCard' }>,
  state: IssuedCardState,
): Decision<CardEvent> {
  if (state.card.account_id === command.account_id)
    return conflict(
      'card_already_assigned',
      `Card ${command.card_id} is already assigned to account ${command.account_id}`,
    );
  return [
    {
      type: 'CardReassigned',
      data: { ...at(command), from_account_id: state.card.account_id, account_id: command.account_id },
    },
  ];
}

function lifecycle(command: Exclude<CardCommand, { type: 'IssueCard' }>, state: IssuedCardState): Decision<CardEvent> {
  switch (command.type) {
    case 'FreezeCard':
      return freeze(command, state);
    case 'UnfreezeCard':
      return unfreeze(command, state);
    case 'MarkCardFraud':
      return state.fraud ? [] : [{ type: 'CardMarkedFraud', data: at(command) }];
    case 'DeleteCard':
      return state.deleted !== null ? [] : [{ type: 'CardDeleted', data: at(command) }];
    case 'ReassignCard':
      return reassign(command, state);
    case 'AuthorizeCard':
      return authorize(command, state);
    case 'DeclineHeldAuthorization':
      return declineHeld(command, state);
    case 'RequestCardAuthorization':
      return requestAuthorization(command, state);
    case 'DecideCardAuthorization':
      return decideAuthorization(command, state);
    case 'CaptureCardTransaction':
      return captureTransaction(command, state);
    case 'ReverseCardTransaction':
      return reverseTransaction(command, state);
  }
}

export function decideCard(command: CardCommand, state: CardState): Decision<CardEvent> {
  if (command.type === 'IssueCard') return state.status === 'none' ? [{ type: 'CardIssued', data: command.card }] : [];
  if (state.status !== 'issued') return notFound('card', command.card_id);
  return lifecycle(command, state);
}

export const cardDecider: Decider<CardCommand, CardEvent, CardState> = {
  initialState: initialCardState,
  decide: decideCard,
  evolve: evolveCard,
};
