import { PAYMENT_INTENT_STATUSES } from '@app/domain/collections';
import { amount, constant, currency, ms, nullable, obj, oneOfValues, str, type Infer } from '../schema-dsl';

/** The payment intent: the OpenAPI component `PaymentIntent`, and the type its presenter (and webhook payloads) return. */
export const paymentIntentSchema = obj({
  id: str('pi_…'),
  object: constant('payment_intent'),
  currency: currency(),
  amount: amount(),
  reference: str(),
  description: nullable(str()),
  status: oneOfValues(PAYMENT_INTENT_STATUSES),
  status_reason: nullable(str()),
  entity_id: str(),
  account_id: str('The account credited on completion'),
  intent_action_id: nullable(str('The action that confirmed it')),
  created: ms(),
  updated: ms(),
});

export type PaymentIntentBody = Infer<typeof paymentIntentSchema>;

/** A refund (decisions §7): the OpenAPI component `Refund`. */
export const refundSchema = obj({
  id: str('rfd_…'),
  object: constant('refund'),
  payment_intent_id: str(),
  amount: amount(),
  currency: currency(),
  reason: nullable(str()),
  status: constant('succeeded'),
  created: ms(),
});

export type RefundBody = Infer<typeof refundSchema>;
