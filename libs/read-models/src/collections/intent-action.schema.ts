import { AUTH_MODELS, COLLECTION_PAYMENT_TYPES, INTENT_ACTION_STATUSES } from '@app/domain/collections';
import {
  amount,
  bool,
  constant,
  country2,
  currency,
  ms,
  nullable,
  obj,
  oneOfValues,
  str,
  type Infer,
} from '../schema-dsl';

/** The intent action: the OpenAPI component `IntentAction`, and the type its presenter returns. */
export const intentActionSchema = obj({
  id: str('ia_…'),
  object: constant('intent_action'),
  payment_intent_id: str(),
  entity_id: str(),
  account_id: str(),
  currency: currency(),
  amount: amount(),
  reference: str(),
  applicable_fee: amount(),
  charge_amount: amount(),
  refunded_amount: amount('Refunded so far'),
  action: constant('confirm'),
  category: constant('collections'),
  payment_type: oneOfValues(COLLECTION_PAYMENT_TYPES),
  payment_type_data: obj(
    {
      auth_model: oneOfValues(AUTH_MODELS),
      payment_country: country2(),
      last_four_digits: nullable(str()),
      card_brand: nullable(str()),
      card_type: nullable(str()),
    },
    { description: 'Never the card: its last four digits, brand and type' },
  ),
  customer: obj({ first_name: str(), last_name: str(), email: str() }),
  return_url: nullable(str()),
  status: oneOfValues(INTENT_ACTION_STATUSES),
  status_reason: nullable(str()),
  requires_action: bool('The customer must complete the redirect (3-D Secure)'),
  next_action: nullable(obj({ type: constant('redirect_to_url'), url: str(undefined, { format: 'uri' }) })),
  created: ms(),
  updated: ms(),
});

export type IntentActionBody = Infer<typeof intentActionSchema>;
