import type { PaymentIntentRecord, RefundRecord } from '@app/domain/collections';
import type { PaymentIntentBody, RefundBody } from './payment-intent.schema';

/** The payment intent as the API shows it (spec); webhook payloads use the same function. */
export const presentPaymentIntent = (i: PaymentIntentRecord): PaymentIntentBody => ({
  id: i.id,
  object: 'payment_intent',
  currency: i.currency,
  amount: i.amount,
  reference: i.reference,
  description: i.description,
  status: i.status,
  status_reason: i.status_reason,
  entity_id: i.entity_id,
  account_id: i.account_id,
  intent_action_id: i.intent_action_id,
  created: i.created,
  updated: i.updated,
});

/** Decisions §7. */
export const presentRefund = (r: RefundRecord): RefundBody => ({
  id: r.id,
  object: 'refund',
  payment_intent_id: r.payment_intent_id,
  amount: r.amount,
  currency: r.currency,
  reason: r.reason,
  status: r.status,
  created: r.created,
});
