import { cardDecider, type CardTransactionRecord, type IssuedCardState } from '@app/domain/cards';
import { presentCard } from '@app/read-models/cards/card.presenter';
import { presentCardTransaction } from '@app/read-models/cards/card-transaction.presenter';
import type { PublicEventRule, PublicEventTable } from './public-event';

/** The card without credentials: no event carries the PAN or CVV (decisions §8). */
const card = (name: string): PublicEventRule => ({
  events: [name],
  data: async (_n, _r, stateAt) => presentCard((await stateAt(cardDecider)) as IssuedCardState),
});

const transaction = (name: string): PublicEventRule => ({
  events: [name],
  data: async (_n, recorded) =>
    presentCardTransaction((recorded.data as { transaction: CardTransactionRecord }).transaction),
});

/** Decisions §8: cards.created|updated|deleted and card_transactions.created|updated. */
export const CARD_PUBLIC_EVENTS: PublicEventTable = {
  CardIssued: card('cards.created'),
  CardFrozen: card('cards.updated'),
  CardUnfrozen: card('cards.updated'),
  CardMarkedFraud: card('cards.updated'),
  CardUsedUp: card('cards.updated'),
  CardReassigned: card('cards.updated'),
  CardDeleted: card('cards.deleted'),
  CardAuthorizationHeld: transaction('card_transactions.created'),
  CardAuthorizationDeclined: transaction('card_transactions.created'),
  CardHoldDeclined: transaction('card_transactions.updated'),
  // Decisions §16: the endpoint's (or fallback's) approval, maybe for less.
  CardAuthorizationApproved: transaction('card_transactions.updated'),
  CardTransactionCaptured: transaction('card_transactions.updated'),
  CardTransactionReversed: transaction('card_transactions.updated'),
};
