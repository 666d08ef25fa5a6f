import { domainError, type DomainError } from '../../shared';
import type { PaymentIntentEvent, PaymentIntentRecord, RefundRecord, RequestedRefund } from './payment-intent.events';

export interface ExistingPaymentIntent {
  readonly status: PaymentIntentRecord['status'];
  readonly intent: PaymentIntentRecord;
  /** Oldest first. */
  readonly refunds: readonly RefundRecord[];
  readonly refunded: number;
  /** Refunds set aside and not yet debited and recorded, or refused, by id: a few at a time. */
  readonly requested: Readonly<Record<string, RequestedRefund>>;
  /** The account's revision at confirmation (PaymentIntentConfirmed), when recorded. */
  readonly account_revision?: number;
}

export type PaymentIntentState = { readonly status: 'none' } | ExistingPaymentIntent;

export const initialPaymentIntentState: PaymentIntentState = { status: 'none' };

export const isPaymentIntent = (state: PaymentIntentState): state is ExistingPaymentIntent => state.status !== 'none';

/** A move the lifecycle does not allow from the current status: 409 (decisions §2). */
export const invalidState = (state: ExistingPaymentIntent, what: string): DomainError =>
  domainError('conflict', 'invalid_state', `A ${state.status} payment intent cannot be ${what}`, {
    details: { current_status: state.status },
  });

/** What can still be refunded: the intent's amount less every refund so far and every one set aside (decisions §7). */
export const refundableOf = (state: ExistingPaymentIntent): number =>
  state.intent.amount - state.refunded - Object.values(state.requested).reduce((sum, r) => sum + r.amount, 0);

function withoutRequest(state: ExistingPaymentIntent, refundId: string): ExistingPaymentIntent['requested'] {
  const { [refundId]: _done, ...rest } = state.requested;
  return rest;
}

export function evolvePaymentIntent(state: PaymentIntentState, event: PaymentIntentEvent): PaymentIntentState {
  if (event.type === 'PaymentIntentCreated')
    return { status: event.data.intent.status, intent: event.data.intent, refunds: [], refunded: 0, requested: {} };
  if (!isPaymentIntent(state)) return state;
  switch (event.type) {
    case 'PaymentIntentRefunded': {
      const { refund, intent } = event.data;
      return {
        ...state,
        intent,
        refunds: [...state.refunds, refund],
        refunded: state.refunded + refund.amount,
        requested: withoutRequest(state, refund.id),
      };
    }
    case 'PaymentIntentRefundRequested':
      return { ...state, requested: { ...state.requested, [event.data.refund.refund_id]: event.data.refund } };
    case 'PaymentIntentRefundFailed':
      return { ...state, requested: withoutRequest(state, event.data.refund_id) };
  }
  if (event.type === 'PaymentIntentConfirmed' && event.data.account_revision !== undefined)
    return {
      ...state,
      status: event.data.intent.status,
      intent: event.data.intent,
      account_revision: event.data.account_revision,
    };
  return { ...state, status: event.data.intent.status, intent: event.data.intent };
}
