import type { IntentActionRecord } from '@app/domain/collections';
import type { IntentActionBody } from './intent-action.schema';

/**
 * The intent action as the API shows it (spec). `payment_type_data` holds only the card summary:
 * it is built field by field, so nothing else an action might carry can ever reach a response.
 */
export const presentIntentAction = (
  a: IntentActionRecord & { readonly refunded_amount: number },
): IntentActionBody => ({
  id: a.id,
  object: 'intent_action',
  payment_intent_id: a.payment_intent_id,
  entity_id: a.entity_id,
  account_id: a.account_id,
  currency: a.currency,
  amount: a.amount,
  reference: a.reference,
  applicable_fee: a.applicable_fee,
  charge_amount: a.charge_amount,
  refunded_amount: a.refunded_amount,
  action: a.action,
  category: a.category,
  payment_type: a.payment_type,
  payment_type_data: {
    auth_model: a.payment_type_data.auth_model,
    payment_country: a.payment_type_data.payment_country,
    last_four_digits: a.payment_type_data.last_four_digits,
    card_brand: a.payment_type_data.card_brand,
    card_type: a.payment_type_data.card_type,
  },
  customer: { first_name: a.customer.first_name, last_name: a.customer.last_name, email: a.customer.email },
  return_url: a.return_url,
  status: a.status,
  status_reason: a.status_reason,
  requires_action: a.requires_action,
  next_action: a.next_action ? { type: a.next_action.type, url: a.next_action.url } : null,
  created: a.created,
  updated: a.updated,
});
