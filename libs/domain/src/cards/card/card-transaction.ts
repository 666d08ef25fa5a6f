import type { FxQuote } from '../fx/fx';

export type CardTransactionStatus = 'pending' | 'successful' | 'declined' | 'reversed';
export type DeclineReason =
  'card_blocked' | 'insufficient_funds' | 'limit_exceeded' | 'mcc_blocked' | 'declined_by_endpoint';

/** Who decided an authorization (decisions §16): the platform alone, the entity's endpoint, or the card's fallback. */
export interface AuthorizationDecision {
  readonly source: 'platform' | 'endpoint' | 'fallback';
  /** The endpoint's HTTP status; null when none came (or none was asked). */
  readonly endpoint_status: number | null;
  readonly latency_ms: number | null;
  readonly reason: string | null;
}

/** What events written before decisions §16 mean: the platform decided alone. */
export const PLATFORM_DECISION: AuthorizationDecision = {
  source: 'platform',
  endpoint_status: null,
  latency_ms: null,
  reason: null,
};

/** Upcast: a record from an event older than §16 carries no `authorization` block. */
export const authorizationOf = (record: { readonly authorization?: AuthorizationDecision }): AuthorizationDecision =>
  record.authorization ?? PLATFORM_DECISION;

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
  /** Absent in events older than decisions §16 (read through `authorizationOf`). */
  readonly authorization?: AuthorizationDecision;
  readonly created: number;
  readonly updated: number;
}
