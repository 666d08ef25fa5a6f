import type { Mode } from '@app/platform/event-store/event-mode';
import type { CardData } from '@app/domain/collections';

/** The acquirer's answer: a reference to the card it keeps, or why it refused it. */
export type Tokenization = { readonly token: string } | { readonly declined: string };
export type Authorization = { readonly approved: true } | { readonly approved: false; readonly reason: string };

export interface AuthorizationRequest {
  readonly token: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly mode: Mode;
}

/**
 * The card network behind collections. The card (number, CVV) is handed over once, in memory,
 * during the confirming request; everything after refers to it by the acquirer's token, so the
 * platform never has to keep it. A real acquirer adapter replaces the simulated one here.
 */
export interface Acquirer {
  tokenize(card: CardData | null, mode: Mode): Promise<Tokenization>;
  authorize(request: AuthorizationRequest): Promise<Authorization>;
}

export const ACQUIRER = Symbol('ACQUIRER');
