import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';

export const UNKNOWN_CARD = 'crd_01ARZ3NDEKTSV4RRFFQ69G5FAV';
export const CARDHOLDER = {
  first_name: 'Ada',
  last_name: 'Okafor',
  email: 'ada@example.com',
  phone_number: '+2348012345678',
};
export const MERCHANT = {
  name: 'Sandbox Books',
  mcc: '5942',
  city: 'Lagos',
  state: 'LA',
  postal_code: '100001',
  country: 'NG',
};

export interface Holder {
  entity: string;
  account: string;
}

export async function account(
  t: TestApp,
  entity: string,
  currency = 'USD',
  fund = 0,
  key: string = KEYS.sandbox,
): Promise<string> {
  const res = await t.http
    .post('/accounts')
    .set(bearer(key))
    .send({ entity_id: entity, type: 'checking', currency, display_name: `${currency} wallet` });
  if (res.status !== 201) throw new Error(`open account failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (fund > 0) {
    const funded = await t.http
      .post(`/sandbox/accounts/${res.body.id}/fund`)
      .set(bearer(key))
      .send({ amount: fund, currency });
    if (funded.status !== 201 && funded.status !== 200)
      throw new Error(`fund failed: ${funded.status} ${JSON.stringify(funded.body)}`);
  }
  return res.body.id as string;
}

export async function holder(
  t: TestApp,
  currency = 'USD',
  fund = 1_000_000,
  key: string = KEYS.sandbox,
): Promise<Holder> {
  const entity = await approvedEntity(t, key);
  return { entity, account: await account(t, entity, currency, fund, key) };
}

export const virtualBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  account_id: accountId,
  card_name: 'Team card',
  cardholder: CARDHOLDER,
  currency: 'USD',
  amount: 100_000,
  ...extra,
});

export const disposableBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
  ...virtualBody(accountId),
  card_name: 'One shot',
  expiration_month: '12',
  expiration_year: '30',
  ...extra,
});

export async function virtualCard(
  t: TestApp,
  accountId: string,
  extra: Record<string, unknown> = {},
  key: string = KEYS.sandbox,
) {
  const res = await t.http.post('/virtual-cards').set(bearer(key)).send(virtualBody(accountId, extra));
  if (res.status !== 201) throw new Error(`virtual card failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; number: string; cvv: string; [k: string]: unknown };
}

export const authorize = (t: TestApp, cardId: string, body: Record<string, unknown> = {}, key: string = KEYS.sandbox) =>
  t.http
    .post(`/sandbox/cards/${cardId}/authorizations`)
    .set(bearer(key))
    .send({ amount: 1_000, currency: 'USD', merchant: MERCHANT, ...body });

export const details = (t: TestApp, cardId: string, key: string = KEYS.sandbox) =>
  t.http.get(`/card-details/${cardId}`).set(bearer(key));

export async function balance(
  t: TestApp,
  accountId: string,
  key: string = KEYS.sandbox,
): Promise<{ available: number; current: number }> {
  const res = await t.http.get(`/accounts/${accountId}`).set(bearer(key));
  return res.body.balance;
}

/** The clock of the running app, pinned at `at` (ms) until moved again. */
export function pinClock(t: TestApp, at: number): (next: number) => void {
  t.clock.set(at);
  return (next) => t.clock.set(next);
}
