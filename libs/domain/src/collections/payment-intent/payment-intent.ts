import type { PaymentIntentEvent, PaymentIntentRecord, RefundRecord } from './payment-intent.events';

export interface ExistingPaymentIntent {
  readonly status: PaymentIntentRecord['status'];
  readonly intent: PaymentIntentRecord;
  /** Oldest first. */
  readonly refunds: readonly RefundRecord[];
  readonly refunded: number;
  /** The account's revision at confirmation (PaymentIntentConfirmed), when recorded. */
  readonly account_revision?: number;
}

export type PaymentIntentState = { readonly status: 'none' } | ExistingPaymentIntent;

export const initialPaymentIntentState: PaymentIntentState = { status: 'none' };

export const isPaymentIntent = (state: PaymentIntentState): state is ExistingPaymentIntent => state.status !== 'none';

/** What can still be refunded: the intent's amount less every refund so far (decisions §7). */
export const refundableOf = (state: ExistingPaymentIntent): number => state.intent.amount - state.refunded;

export function evolvePaymentIntent(state: PaymentIntentState, event: PaymentIntentEvent): PaymentIntentState {
  if (event.type === 'PaymentIntentCreated') return { status: event.data.intent.status, intent: event.data.intent, refunds: [], refunded: 0 };
  if (!isPaymentIntent(state)) return state;
  if (event.type === 'PaymentIntentRefunded') {
    const { refund, intent } = event.data;
    return { ...state, intent, refunds: [...state.refunds, refund], refunded: state.refunded + refund.amount };
  }
  if (event.type === 'PaymentIntentConfirmed' && event.data.account_revision !== undefined)
    return { ...state, status: event.data.intent.status, intent: event.data.intent, account_revision: event.data.account_revision };
  return { ...state, status: event.data.intent.status, intent: event.data.intent };
}
