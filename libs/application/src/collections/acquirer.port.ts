import type { Mode } from '@app/platform/event-store/event-mode';
import type { CardData } from '@app/domain/collections';

/** The acquirer's answer: a reference to the card it keeps, or why it refused it. */
export type Tokenization = { readonly token: string } | { readonly declined: string };
export type Authorization = { readonly approved: true } | { readonly approved: false; readonly reason: string };

export interface AuthorizationRequest {
  /**
   * The step's own id (decisions §13): the same key answers the first result and moves no money
   * again, so a step retried after a crash, or taken over by the backstop, is one authorization.
   * Built by `authorizationKey`; recorded in the claim before the call.
   */
  readonly idempotency_key: string;
  readonly token: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly mode: Mode;
}

/**
 * The card network behind collections. The card (number, CVV) is handed over once, in memory,
 * during the confirming request; everything after refers to it by the acquirer's token, so the
 * platform never has to keep it. A real acquirer adapter replaces the simulated one here; it must
 * honour `idempotency_key` (every acquirer's API has one) and answer or fail well within
 * `AUTHORIZATION_DEADLINE_MS`, after which the backstop calls again with the same key.
 */
export interface Acquirer {
  tokenize(card: CardData | null, mode: Mode): Promise<Tokenization>;
  /** An authorization with capture (a sale): collections have no separate capture step. */
  authorize(request: AuthorizationRequest): Promise<Authorization>;
}

export const ACQUIRER = Symbol('ACQUIRER');

/**
 * Idempotency keys of the steps that call the acquirer: an authorization is keyed by its intent
 * action's id (one action, one authorization). A separate capture, if one is ever added, would be
 * `<action id>:capture`.
 */
export const authorizationKey = (intentActionId: string): string => intentActionId;
