import {
  amount,
  constant,
  country2,
  currency,
  int,
  ms,
  nullable,
  num,
  obj,
  oneOfValues,
  str,
  type Infer,
} from '../schema-dsl';

/** The spec's card transaction: the OpenAPI component `CardTransaction`, and the type its presenter returns. */
export const cardTransactionSchema = obj({
  id: str('ctxn_…'),
  object: constant('card_transaction'),
  amount: amount('In the card currency; the captured amount once captured'),
  currency: currency(),
  unique_reference: str(),
  account_id: str(),
  entity_id: str(),
  counterparty_id: { type: 'null' },
  card_id: str(),
  status: oneOfValues(['pending', 'successful', 'declined', 'reversed']),
  status_reason: nullable(
    oneOfValues(['card_blocked', 'insufficient_funds', 'limit_exceeded', 'mcc_blocked', 'declined_by_endpoint']),
  ),
  narration: str(),
  type: constant('debit'),
  payment_type: constant('card'),
  applicable_fee: amount(),
  initiator: obj({ type: constant('card'), id: str(), name: str(), card_id: str() }),
  recipient: obj({ name: str(), address: obj({ city: str(), state: str(), postal_code: str(), country: country2() }) }),
  meta: obj({ provider_code: str(), mcc: str() }),
  fx: nullable(
    obj({
      rate: num('Account-currency units per one card-currency unit'),
      account_currency: currency(),
      account_amount: amount('In the account currency'),
    }),
  ),
  authorization: obj(
    {
      source: oneOfValues(['platform', 'endpoint', 'fallback']),
      endpoint_status: nullable(int('The endpoint’s HTTP status; null when none came')),
      latency_ms: nullable(int('How long the endpoint took; null when not asked')),
      reason: nullable(
        str(
          'The endpoint’s reason, or why the fallback decided (no_answer, invalid_answer, http_<status>, concurrency_limit)',
        ),
      ),
    },
    { description: 'Decisions §16: who decided the authorization' },
  ),
  created: ms(),
  updated: ms(),
});

export type CardTransactionBody = Infer<typeof cardTransactionSchema>;
