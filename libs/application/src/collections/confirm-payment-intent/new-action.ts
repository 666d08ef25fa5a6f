import {
  collectionFee,
  type CardSummary,
  type CollectionFeeSchedule,
  type IntentActionRecord,
  type PaymentIntentRecord,
} from '@app/domain/collections';
import { ulid } from '@app/platform/ids/ulid';
import type { IntentActionInput } from './confirm-payment-intent.command';

/** The action as first recorded at `now`: waiting for the customer (3-D Secure) or for the acquirer. */
export function newAction(
  intent: PaymentIntentRecord,
  input: IntentActionInput,
  card: CardSummary | null,
  fees: CollectionFeeSchedule,
  baseUrl: string,
  now: number,
): IntentActionRecord {
  const id = `ia_${ulid()}`;
  const data = input.payment_type_data;
  const auth_model = data.auth_model ?? '3ds_required';
  const challenge = auth_model === '3ds_required';
  return {
    id,
    payment_intent_id: intent.id,
    entity_id: intent.entity_id,
    account_id: intent.account_id,
    currency: intent.currency,
    amount: intent.amount,
    reference: intent.reference,
    applicable_fee: collectionFee(fees, input.payment_type, intent.amount),
    charge_amount: intent.amount,
    action: 'confirm',
    category: 'collections',
    payment_type: input.payment_type,
    payment_type_data: {
      auth_model,
      payment_country: data.billing_address.country,
      last_four_digits: card?.last_four_digits ?? null,
      card_brand: card?.card_brand ?? null,
      card_type: card?.card_type ?? null,
    },
    customer: {
      first_name: input.customer.first_name,
      last_name: input.customer.last_name,
      email: input.customer.email,
    },
    return_url: input.return_url ?? null,
    status: challenge ? 'pending_user_action' : 'pending',
    status_reason: null,
    requires_action: challenge,
    next_action: challenge ? { type: 'redirect_to_url', url: `${baseUrl}/3ds/${id}` } : null,
    created: now,
    updated: now,
  };
}
