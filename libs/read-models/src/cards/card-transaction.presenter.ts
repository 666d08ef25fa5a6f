import { authorizationOf, type CardTransactionRecord } from '@app/domain/cards';
import type { CardTransactionBody } from './card-transaction.schema';

/** The spec's card transaction (payment record); `fx` per decisions §8. */
export function presentCardTransaction(t: CardTransactionRecord): CardTransactionBody {
  const m = t.merchant;
  return {
    id: t.id,
    object: 'card_transaction',
    amount: t.amount,
    currency: t.currency,
    unique_reference: t.id,
    account_id: t.account_id,
    entity_id: t.entity_id,
    counterparty_id: null,
    card_id: t.card_id,
    status: t.status,
    status_reason: t.status_reason,
    narration: m.name,
    type: 'debit',
    payment_type: 'card',
    applicable_fee: 0,
    initiator: { type: 'card', id: t.card_id, name: t.card_name, card_id: t.card_id },
    recipient: {
      name: m.name,
      address: { city: m.city, state: m.state, postal_code: m.postal_code, country: m.country },
    },
    meta: { provider_code: 'sandbox', mcc: m.mcc },
    fx: t.fx,
    // Decisions §16: who decided; records older than it read as the platform's.
    authorization: authorizationOf(t),
    created: t.created,
    updated: t.updated,
  };
}
