import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';

export const TRF_ID = /^trf_[0-9A-HJKMNP-TV-Z]{26}[0-9A-F]{20}$/;
export const UNKNOWN_TRANSFER = 'trf_01ARZ3NDEKTSV4RRFFQ69G5FAV';
export const UNKNOWN_PMD = 'pmd_01ARZ3NDEKTSV4RRFFQ69G5FAV';

export const BANK_USD = {
  payment_method: 'bank-transfer',
  currency: 'USD',
  country: 'US',
  bank: { account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' },
};
export const MOMO_KES = {
  payment_method: 'momo-transfer',
  currency: 'KES',
  country: 'KE',
  momo: { phone_number: '+254712345678', provider: 'mpesa' },
};
export const WALLET_USC = {
  payment_method: 'stablecoin-transfer',
  currency: 'USC',
  country: 'US',
  wallet: { address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', chain: 'ethereum' },
};
export const bookTo = (accountId: string, currency = 'USD') => ({
  payment_method: 'book-transfer',
  currency,
  country: 'US',
  book: { account_id: accountId },
});

export async function fund(
  t: TestApp,
  accountId: string,
  amount: number,
  currency: string,
  key: string = KEYS.sandbox,
) {
  const res = await t.http.post(`/sandbox/accounts/${accountId}/fund`).set(bearer(key)).send({ amount, currency });
  if (res.status !== 201) throw new Error(`fund failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A funded account of an approved entity, and a counterparty of that entity. */
export async function payer(t: TestApp, currency: string, funded: number, key: string = KEYS.sandbox) {
  const entity = await approvedEntity(t, key);
  const account = await openAccount(t, key, { entity_id: entity, currency });
  if (funded > 0) await fund(t, account.id, funded, currency, key);
  const counterparty = await createCounterparty(t, entity, {}, key);
  return { entity, account: account.id, counterparty: counterparty.id };
}

/** Adds a payment detail; a transfer may name it at once (commands read the log, not read models). */
export async function paymentDetail(
  t: TestApp,
  counterpartyId: string,
  body: Record<string, unknown>,
  key: string = KEYS.sandbox,
): Promise<string> {
  const res = await t.http.post(`/counterparties/${counterpartyId}/payment-details`).set(bearer(key)).send(body);
  if (res.status !== 201) throw new Error(`payment detail failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export const transferBody = (accountId: string, paymentDetailId: string, over: Record<string, unknown> = {}) => ({
  account_id: accountId,
  payment_detail_id: paymentDetailId,
  amount: 10_000,
  payment_type: 'bank-transfer',
  description: 'Invoice 42',
  unique_reference: `ref-${Math.random().toString(36).slice(2)}`,
  metadata: { order: '42' },
  ...over,
});

export const post = (
  t: TestApp,
  body: Record<string, unknown>,
  path: '/transfer' | '/transfers' = '/transfer',
  key: string = KEYS.sandbox,
) => t.http.post(path).set(bearer(key)).send(body);

export const balanceOf = async (t: TestApp, accountId: string, key: string = KEYS.sandbox) =>
  (await t.http.get(`/accounts/${accountId}`).set(bearer(key)).expect(200)).body.balance as {
    available: number;
    current: number;
  };

export const advance = (t: TestApp, id: string, body: Record<string, unknown>, key: string = KEYS.sandbox) =>
  t.http.post(`/sandbox/transfers/${id}/advance`).set(bearer(key)).send(body);

export async function statement(t: TestApp, accountId: string, key: string = KEYS.sandbox) {
  await t.settle();
  const entries: Array<{
    type: string;
    amount: number;
    fee: number | null;
    transfer_id: string | null;
    balance_after: { available: number; current: number };
  }> = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=100&cursor=${cursor}` : '?limit=100';
    const res = await t.http.get(`/accounts/${accountId}/transactions${query}`).set(bearer(key)).expect(200);
    entries.push(...res.body.data);
    cursor = res.body.meta.pagination.next_cursor;
  } while (cursor);
  return entries.reverse();
}

/** Polls until the transfer reaches `status` (the sandbox network and book settlement are asynchronous). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never reached: ${what}`);
}
