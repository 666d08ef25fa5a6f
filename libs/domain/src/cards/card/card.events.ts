import type { CardControls } from '../controls/controls';
import type { CardTransactionRecord } from './card-transaction';

export type CardType = 'disposable' | 'virtual';
export type AuthorizationFallback = 'approve' | 'decline';

export interface Cardholder {
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone_number: string;
}

export interface Address {
  readonly address_line_1: string;
  readonly address_line_2: string | null;
  readonly city: string;
  readonly state: string;
  readonly postal_code: string;
}

/** Everything the card is, as issued. `pan` and `cvv` are sealed (AES-256-GCM), never clear. */
export interface IssuedCard {
  readonly card_id: string;
  readonly entity_id: string;
  readonly account_id: string;
  readonly type: CardType;
  readonly name: string;
  readonly currency: string;
  /** The card's spend limit (decisions §8): per billing cycle, or for life on a disposable card. */
  readonly amount: number;
  readonly cardholder: Cardholder;
  readonly billing: Address | null;
  readonly pan: string;
  readonly cvv: string;
  readonly last_four: string;
  readonly expiration_month: string;
  readonly expiration_year: string;
  readonly controls: CardControls;
  readonly transaction_alerts: boolean;
  /** Decisions §16: what decides when the entity's authorization endpoint gives no valid answer (absent before §16: decline). */
  readonly authorization_fallback?: AuthorizationFallback;
  readonly metadata: Readonly<Record<string, string>>;
  readonly issued: number;
}

type At = { readonly card_id: string; readonly at: number };
type WithTransaction = { readonly card_id: string; readonly transaction: CardTransactionRecord };

export type CardEvent =
  | { readonly type: 'CardIssued'; readonly data: IssuedCard }
  | { readonly type: 'CardFrozen'; readonly data: At }
  | { readonly type: 'CardUnfrozen'; readonly data: At }
  | { readonly type: 'CardMarkedFraud'; readonly data: At }
  | { readonly type: 'CardDeleted'; readonly data: At }
  /** A disposable card blocking itself after its first success. */
  | { readonly type: 'CardUsedUp'; readonly data: At }
  | {
      readonly type: 'CardReassigned';
      readonly data: At & { readonly from_account_id: string; readonly account_id: string };
    }
  /** Approved by the card: its usage carries the hold; the account hold follows. */
  | { readonly type: 'CardAuthorizationHeld'; readonly data: WithTransaction }
  /** Declined by the card: a new transaction that never held anything. */
  | { readonly type: 'CardAuthorizationDeclined'; readonly data: WithTransaction }
  /** Held by the card, then refused by the account's available balance: the usage hold goes. */
  | { readonly type: 'CardHoldDeclined'; readonly data: WithTransaction }
  /** Decisions §16: the entity's endpoint is about to be asked (written first: a request that dies after it is never asked again). */
  | { readonly type: 'CardAuthorizationRequested'; readonly data: At & { readonly transaction_id: string } }
  /** Decisions §16: the endpoint (or the fallback) approved, in full or for less (the usage then holds only that). */
  | { readonly type: 'CardAuthorizationApproved'; readonly data: WithTransaction }
  | { readonly type: 'CardTransactionCaptured'; readonly data: WithTransaction }
  | { readonly type: 'CardTransactionReversed'; readonly data: WithTransaction };

export type CardEventType = CardEvent['type'];
