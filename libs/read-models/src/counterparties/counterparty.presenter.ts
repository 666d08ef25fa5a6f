import type { CounterpartyProfile, CounterpartyType, PaymentDetailData } from '@app/domain';
import type { LookupResult } from '@app/application/counterparties/lookup-counterparty/lookup-counterparty.query';
import type { PaymentDetailDocument } from './payment-detail.projection';
import type { CounterpartyBody, CounterpartyLookupBody } from './counterparty.schema';

/** The fields both the folded state and the list document carry. */
export interface CounterpartyView {
  readonly id: string;
  readonly entity_id: string;
  readonly type: CounterpartyType;
  readonly nickname: string;
  readonly status: 'active' | 'inactive';
  readonly profile: CounterpartyProfile;
  readonly meta: Readonly<Record<string, string>>;
  readonly created: number;
  readonly updated: number;
}

/** Returns its schema's type (counterparty.schema.ts). */
export const presentCounterparty = (c: CounterpartyView): CounterpartyBody => ({
  id: c.id,
  object: 'counterparty',
  entity_id: c.entity_id,
  type: c.type,
  nickname: c.nickname,
  status: c.status,
  profile: c.profile,
  meta: c.meta,
  created: c.created,
  updated: c.updated,
});

/** Decisions §5: `{id, object, counterparty_id, entity_id, payment_method, currency, country, <block>, status, created, updated}`. */
export function presentAddedPaymentDetail(d: PaymentDetailData) {
  const { payment_detail_id, counterparty_id, entity_id, payment_method, currency, country, added, ...block } = d;
  return {
    id: payment_detail_id,
    object: 'payment_detail',
    counterparty_id,
    entity_id,
    payment_method,
    currency,
    country,
    ...block,
    status: 'active',
    created: added,
    updated: added,
  };
}

export const presentPaymentDetail = (d: PaymentDetailDocument) => ({
  id: d.id,
  object: 'payment_detail',
  counterparty_id: d.counterparty_id,
  entity_id: d.entity_id,
  payment_method: d.payment_method,
  currency: d.currency,
  country: d.country,
  ...d.block,
  status: d.status,
  created: d.created,
  updated: d.updated,
});

export const presentLookup = (r: LookupResult): CounterpartyLookupBody => ({
  status: 'success',
  message: 'Account details are valid',
  data: r,
});
