import { bearer, KEYS, type TestApp } from '../support/test-app';

export const individualProfile = (over: Record<string, unknown> = {}) => ({
  first_name: 'Grace',
  last_name: 'Hopper',
  ...over,
});
export const businessProfile = (over: Record<string, unknown> = {}) => ({ legal_name: 'Acme Supplies Ltd', ...over });

export async function createCounterparty(
  t: TestApp,
  entityId: string,
  body: Record<string, unknown> = {},
  key: string = KEYS.sandbox,
) {
  const res = await t.http
    .post('/counterparties')
    .set(bearer(key))
    .send({ type: 'individual', entity_id: entityId, profile: individualProfile(), ...body });
  if (res.status !== 201) throw new Error(`counterparty failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; entity_id: string; nickname: string; status: string; type: string };
}

export const bankDetail = (bank: Record<string, unknown>, currency = 'USD', country = 'US') => ({
  payment_method: 'bank-transfer',
  currency,
  country,
  bank,
});

export const CPT_ID = /^cpt_[0-9A-HJKMNP-TV-Z]{26}$/;
export const PMD_ID = /^pmd_[0-9A-HJKMNP-TV-Z]{26}$/;
export const UNKNOWN_CPT = 'cpt_01ARZ3NDEKTSV4RRFFQ69G5FAV';
