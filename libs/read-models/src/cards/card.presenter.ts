import { cardStatus, type cardUsage, type EntryLimits, type IssuedCardState } from '@app/domain/cards';

import type { CardDocument } from './card.projection';
import type { CardBody, CardSummaryBody } from './card.schema';

type Usage = ReturnType<typeof cardUsage>;

const limits = (e: EntryLimits) => ({
  open: e.open,
  cumulative_amount_limit: e.cumulative_amount_limit,
  cycle_transaction_count: e.cycle_transaction_count,
  daily_amount_limit: e.daily_amount_limit,
  daily_transaction_count: e.daily_transaction_count,
  transaction_amount_limit: e.transaction_amount_limit,
});

function controls(state: IssuedCardState, usage: Usage | null) {
  const { individual, mcc, groups } = state.card.controls;
  return {
    individual_controls: individual ? { ...individual } : {},
    individual_mcc_controls: mcc.map((e, i) => ({ mcc: e.mcc, ...limits(e), ...(usage?.mcc[i] ?? {}) })),
    mcc_group_controls: groups.map((g, i) => ({ group_name: g.group_name, ...limits(g), ...(usage?.groups[i] ?? {}) })),
  };
}

/**
 * The card as the API shows it. `credentials` only for the creation answer and GET /card-details
 * (decisions §8); `usage` only on card details, at the top level of `data`. Returns its schema's type
 * (card.schema.ts).
 */
export function presentCard(
  state: IssuedCardState,
  credentials: { number: string; cvv: string } | null = null,
  usage: Usage | null = null,
): CardBody {
  const c = state.card;
  return {
    id: c.card_id,
    object: 'card',
    name: c.name,
    status: cardStatus(state),
    type: c.type,
    entity_id: c.entity_id,
    account_id: c.account_id,
    currency: c.currency,
    amount: c.amount,
    first_name: c.cardholder.first_name,
    last_name: c.cardholder.last_name,
    cardholder: c.cardholder,
    ...(credentials ? { number: credentials.number } : {}),
    last_four: c.last_four,
    expiration_month: c.expiration_month,
    expiration_year: c.expiration_year,
    ...(credentials ? { cvv: credentials.cvv } : {}),
    ...controls(state, usage),
    ...(usage?.card ?? {}),
    billing: c.billing,
    shipping: null,
    transaction_alerts: c.transaction_alerts,
    authorization_fallback: c.authorization_fallback ?? 'decline',
    metadata: c.metadata,
    deleted: state.deleted,
    created: c.issued,
    updated: state.updated,
  };
}

/** A card of the list, from its list document. */
export const presentCardSummary = (
  d: Pick<CardDocument, 'id' | 'name' | 'status' | 'type' | 'last_four' | 'account_id' | 'created'>,
): CardSummaryBody => ({
  id: d.id,
  name: d.name,
  status: d.status,
  type: d.type,
  last_four: d.last_four,
  account_id: d.account_id,
  created: d.created,
});
