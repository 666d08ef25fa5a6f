import { constants, publicEncrypt } from 'node:crypto';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { formToken, formTokenKey } from '../../apps/api/src/collections/three-ds.form';
import { openAccount } from '../accounts/accounts-helpers';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';

export const PI_ID = /^pi_[0-9A-HJKMNP-TV-Z]{26}$/;
export const IA_ID = /^ia_[0-9A-HJKMNP-TV-Z]{26}$/;
export const UNKNOWN_PI = 'pi_01ARZ3NDEKTSV4RRFFQ69G5FAV';
export const UNKNOWN_IA = 'ia_01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** Decisions §7's test cards, and the CVVs the tests send: the PAN/CVV scan looks for all of them. */
export const CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  other: '5555555555554444',
} as const;
export const CVVS = ['123', '987', '4321'];
export const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

export interface Card {
  card_number?: unknown;
  expiration_month?: unknown;
  expiration_year?: unknown;
  cvv?: unknown;
  card_holder_name?: unknown;
  [field: string]: unknown;
}

export const card = (over: Card = {}): Card => ({
  card_number: CARDS.approved,
  expiration_month: '12',
  expiration_year: NEXT_YEAR,
  cvv: '123',
  card_holder_name: 'Ada Lovelace',
  ...over,
});

/** The key's encryption public key, as a client reads it. */
export async function publicKeyOf(t: TestApp, key: string = KEYS.sandbox): Promise<string> {
  return (await t.http.get('/api-keys/current').set(bearer(key)).expect(200)).body.encryption_public_key as string;
}

/** As a client encrypts card data: RSA-OAEP with SHA-256 under the key's public PEM, Base64. */
export const encrypt = (pem: string, value: unknown): string =>
  publicEncrypt(
    { key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
  ).toString('base64');

/** An approved entity's USD account that collections credit. */
export async function merchant(t: TestApp, key: string = KEYS.sandbox, currency = 'USD') {
  const entity = await approvedEntity(t, key);
  const account = await openAccount(t, key, { entity_id: entity, currency });
  return { entity, account: account.id };
}

export const intentBody = (accountId: string, over: Record<string, unknown> = {}) => ({
  currency: 'USD',
  amount: 10_000,
  account_id: accountId,
  reference: `order-${Math.random().toString(36).slice(2)}`,
  description: 'Order 42',
  ...over,
});

export const BROWSER = {
  accept_header: 'text/html',
  user_agent: 'jest',
  java_enabled: false,
  javascript_enabled: true,
  language: 'en-GB',
  color_depth: '24',
  screen_height: '900',
  screen_width: '1440',
  timezone_offset: '0',
};
export const ADDRESS = { address_line_one: '1 Analytical Way', city: 'London', state: 'LDN', country: 'GB' };

export function cardAction(data: string, over: Record<string, unknown> = {}, dataOver: Record<string, unknown> = {}) {
  return {
    action: 'confirm',
    category: 'collections',
    payment_type: 'card-acq',
    payment_type_data: {
      data,
      billing_address: ADDRESS,
      auth_model: '3ds_required',
      browser_info: BROWSER,
      ...dataOver,
    },
    customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    return_url: 'https://merchant.example/return',
    ...over,
  };
}

export const walletAction = (over: Record<string, unknown> = {}, dataOver: Record<string, unknown> = {}) => ({
  action: 'confirm',
  category: 'collections',
  payment_type: 'walletpay-acq',
  payment_type_data: { billing_address: { country: 'GB' }, auth_model: '3ds_disabled', ...dataOver },
  customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  ...over,
});

export async function createIntent(
  t: TestApp,
  accountId: string,
  over: Record<string, unknown> = {},
  key: string = KEYS.sandbox,
) {
  const res = await t.http.post('/payment-intents').set(bearer(key)).send(intentBody(accountId, over));
  if (res.status !== 201) throw new Error(`create intent failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; status: string; reference: string; intent_action?: Record<string, unknown> };
}

export const confirm = (t: TestApp, intentId: string, action: unknown, key: string = KEYS.sandbox) =>
  t.http.post('/intent-actions').set(bearer(key)).send({ payment_intent_id: intentId, intent_action: action });

/** The 3-D Secure page's form token for an action, as the page renders it in its forms. */
export const formTokenOf = (t: TestApp, actionId: string): string =>
  formToken(formTokenKey(t.app.get<PlatformConfig>(PLATFORM_CONFIG).masterKey), actionId);

/** The page's own form submission: its token, and what a browser says of a same-origin POST from it. */
export const submitPage = (
  t: TestApp,
  actionId: string,
  button: 'approve' | 'fail' = 'approve',
  token: string = formTokenOf(t, actionId),
) =>
  t.http
    .post(`/3ds/${actionId}/${button}`)
    .set({ 'Sec-Fetch-Site': 'same-origin', Origin: 'null' })
    .type('form')
    .send({ csrf_token: token });

export const balanceOf = async (t: TestApp, accountId: string, key: string = KEYS.sandbox) =>
  (await t.http.get(`/accounts/${accountId}`).set(bearer(key)).expect(200)).body.balance as {
    available: number;
    current: number;
  };

/** 290 bps of 10 000, rounded up (decisions §7 default). */
export const CARD_FEE = 290;
