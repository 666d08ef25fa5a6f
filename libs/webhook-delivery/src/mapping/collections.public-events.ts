import type { PaymentIntentEvent } from '@app/domain/collections';
import { presentPaymentIntent, presentRefund } from '@app/read-models/collections/payment-intent.presenter';
import type { PublicEventRule, PublicEventTable } from './public-event';

type Refunded = Extract<PaymentIntentEvent, { type: 'PaymentIntentRefunded' }>;

/** Final states fire with `data` = the intent after the event (spec Events). */
const intent = (name: string): PublicEventRule => ({
  events: [name],
  data: async (_n, recorded) =>
    presentPaymentIntent((recorded.data as Exclude<PaymentIntentEvent, Refunded>['data']).intent),
});

/** Decisions §7: final states of the intent, and refunds with `data` = the refund. */
export const COLLECTION_PUBLIC_EVENTS: PublicEventTable = {
  PaymentIntentCompleted: intent('payment_intent.completed'),
  PaymentIntentFailed: intent('payment_intent.failed'),
  PaymentIntentCancelled: intent('payment_intent.cancelled'),
  PaymentIntentRefunded: {
    events: ['payment_intent.refunded'],
    data: async (_n, recorded) => presentRefund((recorded.data as Refunded['data']).refund),
  },
};
