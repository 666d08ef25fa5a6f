import type { FxQuote } from '../fx/fx';

export type CardTransactionStatus = 'pending' | 'successful' | 'declined' | 'reversed';
export type DeclineReason = 'card_blocked' | 'insufficient_funds' | 'limit_exceeded' | 'mcc_blocked';

export interface Merchant {
  readonly name: string;
  readonly mcc: string;
  readonly city: string;
  readonly state: string;
  readonly postal_code: string;
  readonly country: string;
}

/** The spec's card transaction (payment record), plus what the sandbox network decided with. */
export interface CardTransactionRecord {
  readonly id: string;
  readonly card_id: string;
  readonly card_name: string;
  readonly account_id: string;
  readonly entity_id: string;
  /** Card currency, minor units; the captured amount once captured. */
  readonly amount: number;
  readonly currency: string;
  readonly status: CardTransactionStatus;
  readonly status_reason: DeclineReason | null;
  readonly merchant: Merchant;
  /** Null when the account holds the card's currency. */
  readonly fx: FxQuote | null;
  /** What the account holds or was debited, in its currency (= amount without FX). */
  readonly account_amount: number;
  readonly created: number;
  readonly updated: number;
}
