import { derivedUlid } from '@app/application/webhooks/streams';
import { FILES } from '../onboarding/fixtures';

/** The first world's resources: everything here belongs to entity E in the sandbox world of one organization. */
export interface World {
  readonly entity: string;
  readonly personId: string;
  readonly business: string;
  readonly account: string;
  readonly counterparty: string;
  readonly paymentDetail: string;
  readonly transfer: string;
  readonly webhook: string;
  readonly apiKey: string;
  /** A second account of E (EUR), for a card's reassignment. */
  readonly account2: string;
  readonly card: string;
  /** A held (uncaptured) authorization on the card. */
  readonly cardTransaction: string;
  /** Confirmed with a card needing 3-D Secure: its action waits for the page. */
  readonly waitingIntent: string;
  readonly action: string;
  /** The page's form token for that action (what the page's own form posts back). */
  readonly actionFormToken: string;
  /** Completed: it can be refunded. */
  readonly paidIntent: string;
  /** Created without an action yet: it can be confirmed or cancelled. */
  readonly openIntent: string;
  /** An event of the first world (the transfer's creation, `evt_…`), in a signed checkpoint: GET /events/{id}/proof. */
  readonly event: string;
}

export interface RouteRequest {
  readonly path: string;
  readonly body?: Record<string, unknown>;
  /** multipart fields and one file, for the document upload */
  readonly multipart?: { readonly fields: Record<string, string>; readonly file: Buffer };
}

/**
 * How a route answers another world (decisions §1):
 * - `owned`: names a first-world resource (path, query or body): another mode or organization 404,
 *   another entity's token 403.
 * - `list`: lists: the other worlds get 200 (or 403 for a token asking for entity E) and never see a first-world id.
 * - `create`: creates in the caller's own world from nothing of the first world: 2xx, 403 for a token.
 * - `shared`: reference data or the caller's own key: 200 for any key.
 * - `sandbox`: a simulator naming a first-world resource: a live key 403 `sandbox_only`, another organization 404, a token 403.
 * - `operator`: the operator API, outside API-key tenancy (test/operator); unset token: 404 for everyone.
 * - `capability`: the 3-D Secure page, opened by the customer's browser without a key: its
 *   unguessable action id is the credential, so any caller may read it (never a 401 or 5xx) and the
 *   other worlds do not press its buttons (that is the id holder's act, as the page intends).
 * - `public`: the dashboard's page and files (`/dashboard`), the OpenAPI document and the docs
 *   page (`/openapi.json`, `/docs`), the same for every caller with or
 *   without a key (the page holds no data: it signs in with a key); never a 401 or a 5xx.
 * - `relay`: the sandbox card authorization relay of `npm run listen` (decisions §16), naming
 *   nothing of a world: a live key 403 `sandbox_only`, another organization its own relay (200, or
 *   409 for an answer no request of its own waits for), a token 403.
 * `liveManagesSandboxKeys`: a live key manages its organization's sandbox keys (decisions §1), so it is allowed there.
 */
export type RouteKind =
  'owned' | 'list' | 'create' | 'shared' | 'sandbox' | 'operator' | 'capability' | 'public' | 'relay';

export interface RouteCase {
  readonly kind: RouteKind;
  readonly request: (w: World) => RouteRequest;
  readonly liveManagesSandboxKeys?: true;
  /** A token of another entity is refused before the resource is read (API-key-only routes). */
  readonly apiKeyOnly?: true;
}

const individual = {
  first_name: 'Ada',
  last_name: 'Okafor',
  email: 'ada@example.com',
  date_of_birth: '1990-01-31',
  country_of_residence: 'NG',
};
const business = {
  legal_name: 'Acme Trading Ltd',
  email: 'ops@acme.test',
  business_type: 'llc',
  country_of_incorporation: 'GB',
  registered_address: {
    line_1: '1 High Street',
    city: 'London',
    state: 'Greater London',
    postal_code: 'N1 9GU',
    country_code: 'GB',
  },
};
const bank = {
  payment_method: 'bank-transfer',
  currency: 'USD',
  country: 'US',
  bank: { account_number: '987654321', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' },
};

/** Every route of the API, keyed `METHOD /path` as the Nest router has it; the test fails when one is missing. */
export const ROUTES: Record<string, RouteCase> = {
  'GET /health': { kind: 'shared', request: () => ({ path: '/health' }) },
  'GET /health/live': { kind: 'shared', request: () => ({ path: '/health/live' }) },
  'GET /health/ready': { kind: 'shared', request: () => ({ path: '/health/ready' }) },
  'GET /metrics': { kind: 'shared', request: () => ({ path: '/metrics' }) },
  'GET /api-keys/current': { kind: 'shared', request: () => ({ path: '/api-keys/current' }) },
  'GET /bank-codes/:country': { kind: 'shared', request: () => ({ path: '/bank-codes/NG' }) },
  'POST /counterparty-lookups': {
    kind: 'shared',
    request: () => ({
      path: '/counterparty-lookups',
      body: {
        currency: 'USD',
        country: 'USA',
        account_number: '123456789',
        issuer: { code: '011000138', scheme: 'aba' },
      },
    }),
  },

  'POST /api-keys': {
    kind: 'create',
    apiKeyOnly: true,
    request: () => ({ path: '/api-keys', body: { name: 'matrix' } }),
  },
  'GET /api-keys': { kind: 'list', apiKeyOnly: true, request: () => ({ path: '/api-keys' }) },
  'POST /api-keys/:id/rotate': {
    kind: 'owned',
    apiKeyOnly: true,
    liveManagesSandboxKeys: true,
    request: (w) => ({ path: `/api-keys/${w.apiKey}/rotate` }),
  },
  'DELETE /api-keys/:id': {
    kind: 'owned',
    apiKeyOnly: true,
    liveManagesSandboxKeys: true,
    request: (w) => ({ path: `/api-keys/${w.apiKey}` }),
  },
  'POST /entity-tokens': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: '/entity-tokens', body: { entity_id: w.entity } }),
  },

  'POST /entities': {
    kind: 'create',
    apiKeyOnly: true,
    request: () => ({
      path: '/entities',
      body: { type: 'individual', first_name: 'M', last_name: 'Atrix', email: 'm@example.com', country: 'GB' },
    }),
  },
  'POST /individual-entities': {
    kind: 'create',
    apiKeyOnly: true,
    request: () => ({ path: '/individual-entities', body: individual }),
  },
  'POST /business-entities': {
    kind: 'create',
    apiKeyOnly: true,
    request: () => ({ path: '/business-entities', body: business }),
  },
  'GET /entities': { kind: 'list', request: () => ({ path: '/entities' }) },
  'GET /entities/:id': { kind: 'owned', request: (w) => ({ path: `/entities/${w.entity}` }) },
  'PATCH /individual-entities/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/individual-entities/${w.entity}`, body: { person: { first_name: 'Changed' } } }),
  },
  'PATCH /business-entities/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/business-entities/${w.business}`, body: { name: 'Changed Ltd' } }),
  },
  'POST /documents/upload': {
    kind: 'owned',
    request: (w) => ({
      path: '/documents/upload',
      multipart: { fields: { key: 'identity', 'link_to_identity[person_id]': w.personId }, file: FILES.png },
    }),
  },
  'POST /onboarding-submissions': {
    kind: 'owned',
    request: (w) => ({ path: '/onboarding-submissions', body: { entity_id: w.entity } }),
  },
  'POST /sandbox/entities/:id/review': {
    kind: 'sandbox',
    request: (w) => ({ path: `/sandbox/entities/${w.entity}/review`, body: { decision: 'rejected' } }),
  },

  'POST /accounts': {
    kind: 'owned',
    request: (w) => ({ path: '/accounts', body: { entity_id: w.entity, type: 'checking', currency: 'EUR' } }),
  },
  'GET /accounts': { kind: 'list', request: () => ({ path: '/accounts' }) },
  'GET /accounts/:id': { kind: 'owned', request: (w) => ({ path: `/accounts/${w.account}` }) },
  'GET /accounts/:id/transactions': {
    kind: 'owned',
    request: (w) => ({ path: `/accounts/${w.account}/transactions` }),
  },
  'GET /accounts/:id/statements/:month': {
    kind: 'owned',
    request: (w) => ({ path: `/accounts/${w.account}/statements/${new Date().toISOString().slice(0, 7)}` }),
  },
  'POST /account-details': {
    kind: 'owned',
    request: (w) => ({ path: '/account-details', body: { account_id: w.account, asset_type: 'fiat' } }),
  },
  'POST /sandbox/accounts/:id/fund': {
    kind: 'sandbox',
    request: (w) => ({ path: `/sandbox/accounts/${w.account}/fund`, body: { amount: 1, currency: 'USD' } }),
  },

  'POST /counterparties': {
    kind: 'owned',
    request: (w) => ({
      path: '/counterparties',
      body: { type: 'individual', entity_id: w.entity, profile: { first_name: 'Grace', last_name: 'Hopper' } },
    }),
  },
  'GET /counterparties': { kind: 'list', request: (w) => ({ path: `/counterparties?entity_id=${w.entity}` }) },
  'GET /counterparties/:id': { kind: 'owned', request: (w) => ({ path: `/counterparties/${w.counterparty}` }) },
  'PATCH /counterparties/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/counterparties/${w.counterparty}`, body: { nickname: 'changed' } }),
  },
  'POST /counterparties/:id/deactivate': {
    kind: 'owned',
    request: (w) => ({ path: `/counterparties/${w.counterparty}/deactivate`, body: { entity_id: w.entity } }),
  },
  'POST /counterparties/:id/payment-details': {
    kind: 'owned',
    request: (w) => ({ path: `/counterparties/${w.counterparty}/payment-details`, body: bank }),
  },
  'GET /counterparties/:id/payment-details': {
    kind: 'owned',
    request: (w) => ({ path: `/counterparties/${w.counterparty}/payment-details` }),
  },

  'POST /transfer': { kind: 'owned', request: (w) => ({ path: '/transfer', body: transfer(w) }) },
  'POST /transfers': { kind: 'owned', request: (w) => ({ path: '/transfers', body: transfer(w) }) },
  'GET /transfers': { kind: 'list', request: (w) => ({ path: `/transfers?entity_id=${w.entity}` }) },
  'GET /transfers/:id': { kind: 'owned', request: (w) => ({ path: `/transfers/${w.transfer}?entity_id=${w.entity}` }) },
  'POST /transfers/:id/cancel': {
    kind: 'owned',
    request: (w) => ({ path: `/transfers/${w.transfer}/cancel`, body: { entity_id: w.entity } }),
  },
  'POST /sandbox/transfers/:id/advance': {
    kind: 'sandbox',
    request: (w) => ({ path: `/sandbox/transfers/${w.transfer}/advance`, body: { to: 'failed' } }),
  },

  'POST /entity-webhooks': {
    kind: 'owned',
    request: (w) => ({
      path: '/entity-webhooks',
      body: { entity_id: w.entity, url: 'https://hooks.example.com/matrix', enabled_events: { outflows: ['created'] } },
    }),
  },
  'GET /entity-webhooks': { kind: 'list', request: (w) => ({ path: `/entity-webhooks?entity_id=${w.entity}` }) },
  'GET /entity-webhooks/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/entity-webhooks/${w.webhook}?entity_id=${w.entity}` }),
  },
  'PATCH /entity-webhooks/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/entity-webhooks/${w.webhook}`, body: { entity_id: w.entity, description: 'changed' } }),
  },
  'DELETE /entity-webhooks/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/entity-webhooks/${w.webhook}?entity_id=${w.entity}` }),
  },
  // Decisions §15: the outflows.created the transfer's creation (`w.event`) fired, its webhook event id derived as the router derives it.
  'POST /entity-webhooks/:id/resend': {
    kind: 'owned',
    request: (w) => ({
      path: `/entity-webhooks/${w.webhook}/resend`,
      body: { entity_id: w.entity, event_id: `evt_${derivedUlid(w.event.slice('evt_'.length), 'outflows.created')}` },
    }),
  },
  'POST /entity-webhooks/:id/recover': {
    kind: 'owned',
    request: (w) => ({
      path: `/entity-webhooks/${w.webhook}/recover`,
      body: { entity_id: w.entity, since: '2026-01-01' },
    }),
  },
  'POST /entity-webhooks/:id/rotate-secret': {
    kind: 'owned',
    request: (w) => ({
      path: `/entity-webhooks/${w.webhook}/rotate-secret`,
      body: { entity_id: w.entity, expire_previous_in: 60 },
    }),
  },
  'POST /webhook-tests': {
    kind: 'owned',
    request: (w) => ({
      path: '/webhook-tests',
      body: { webhook_id: w.webhook, event_group: 'outflows', event_name: 'created', entity_id: w.entity },
    }),
  },
  'GET /webhook-logs': { kind: 'list', request: (w) => ({ path: `/webhook-logs?entity_id=${w.entity}` }) },

  'POST /virtual-cards': { kind: 'owned', request: (w) => ({ path: '/virtual-cards', body: cardBody(w) }) },
  'POST /disposable-cards': {
    kind: 'owned',
    request: (w) => ({
      path: '/disposable-cards',
      body: { ...cardBody(w), expiration_month: '12', expiration_year: '30' },
    }),
  },
  'GET /cards': { kind: 'list', request: (w) => ({ path: `/cards?entity_id=${w.entity}` }) },
  'GET /card-details/:id': { kind: 'owned', request: (w) => ({ path: `/card-details/${w.card}` }) },
  'PATCH /card-details/:id/freeze': { kind: 'owned', request: (w) => ({ path: `/card-details/${w.card}/freeze` }) },
  'PATCH /card-details/:id/unfreeze': { kind: 'owned', request: (w) => ({ path: `/card-details/${w.card}/unfreeze` }) },
  'DELETE /card-details/:id': { kind: 'owned', request: (w) => ({ path: `/card-details/${w.card}` }) },
  'PATCH /cards/:id/account': {
    kind: 'owned',
    request: (w) => ({ path: `/cards/${w.card}/account`, body: { account_id: w.account2 } }),
  },
  'GET /card-transactions/:cardId': { kind: 'owned', request: (w) => ({ path: `/card-transactions/${w.card}` }) },
  'POST /sandbox/cards/:id/authorizations': {
    kind: 'sandbox',
    request: (w) => ({
      path: `/sandbox/cards/${w.card}/authorizations`,
      body: { amount: 100, currency: 'USD', merchant: MERCHANT, capture: false },
    }),
  },
  'POST /sandbox/card-transactions/:id/capture': {
    kind: 'sandbox',
    request: (w) => ({ path: `/sandbox/card-transactions/${w.cardTransaction}/capture`, body: {} }),
  },
  'POST /sandbox/card-transactions/:id/reverse': {
    kind: 'sandbox',
    request: (w) => ({ path: `/sandbox/card-transactions/${w.cardTransaction}/reverse` }),
  },
  'POST /sandbox/cards/:id/fraud': { kind: 'sandbox', request: (w) => ({ path: `/sandbox/cards/${w.card}/fraud` }) },
  // `follow=false` ends the relay's stream after `ready`; an answer nothing waits for is 409.
  'GET /sandbox/card-authorization-relay': {
    kind: 'relay',
    apiKeyOnly: true,
    request: () => ({ path: '/sandbox/card-authorization-relay?follow=false' }),
  },
  'POST /sandbox/card-authorization-relay/:id': {
    kind: 'relay',
    apiKeyOnly: true,
    request: (w) => ({
      path: `/sandbox/card-authorization-relay/evt_${w.cardTransaction.slice(5)}`,
      body: { status: 200, body: '{"approved":true}' },
    }),
  },

  'POST /payment-intents': {
    kind: 'owned',
    request: (w) => ({
      path: '/payment-intents',
      body: { currency: 'USD', amount: 500, account_id: w.account, reference: `matrix-${Math.random()}` },
    }),
  },
  'GET /payment-intents': { kind: 'list', request: () => ({ path: '/payment-intents' }) },
  'GET /payment-intents/:id': { kind: 'owned', request: (w) => ({ path: `/payment-intents/${w.waitingIntent}` }) },
  'PATCH /payment-intents/:id': {
    kind: 'owned',
    request: (w) => ({ path: `/payment-intents/${w.openIntent}`, body: { action: 'cancel' } }),
  },
  'POST /payment-intents/:id/refunds': {
    kind: 'owned',
    request: (w) => ({ path: `/payment-intents/${w.paidIntent}/refunds`, body: { amount: 100 } }),
  },
  'GET /payment-intents/:id/refunds': {
    kind: 'owned',
    request: (w) => ({ path: `/payment-intents/${w.paidIntent}/refunds` }),
  },
  'POST /intent-actions': {
    kind: 'owned',
    request: (w) => ({
      path: '/intent-actions',
      body: { payment_intent_id: w.openIntent, intent_action: WALLET_ACTION },
    }),
  },
  'GET /intent-actions': { kind: 'list', request: () => ({ path: '/intent-actions' }) },
  'GET /intent-actions/:id': { kind: 'owned', request: (w) => ({ path: `/intent-actions/${w.action}` }) },
  'POST /intent-verifications/:id': { kind: 'owned', request: (w) => ({ path: `/intent-verifications/${w.action}` }) },
  'POST /sandbox/intent-actions/:id/authenticate': {
    kind: 'sandbox',
    request: (w) => ({ path: `/sandbox/intent-actions/${w.action}/authenticate`, body: { result: 'success' } }),
  },
  'GET /3ds/:id': { kind: 'capability', request: (w) => ({ path: `/3ds/${w.action}` }) },
  'POST /3ds/:id/approve': {
    kind: 'capability',
    request: (w) => ({ path: `/3ds/${w.action}/approve`, body: { csrf_token: w.actionFormToken } }),
  },
  'POST /3ds/:id/fail': {
    kind: 'capability',
    request: (w) => ({ path: `/3ds/${w.action}/fail`, body: { csrf_token: w.actionFormToken } }),
  },

  'POST /admin/entities/:id/review': {
    kind: 'operator',
    request: (w) => ({ path: `/admin/entities/${w.entity}/review`, body: { decision: 'rejected' } }),
  },
  'POST /admin/transfers/:id/advance': {
    kind: 'operator',
    request: (w) => ({ path: `/admin/transfers/${w.transfer}/advance`, body: { to: 'failed' } }),
  },
  'POST /admin/accounts/:id/inflows': {
    kind: 'operator',
    request: (w) => ({
      path: `/admin/accounts/${w.account}/inflows`,
      body: {
        amount: 100,
        currency: 'USD',
        rail: 'bank-transfer',
        reference: `matrix-${Math.random().toString(36).slice(2)}`,
      },
    }),
  },
  'GET /events': { kind: 'list', apiKeyOnly: true, request: () => ({ path: '/events?limit=100' }) },
  'GET /entities/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/entities/${w.entity}/history` }),
  },
  'GET /accounts/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/accounts/${w.account}/history` }),
  },
  'GET /counterparties/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/counterparties/${w.counterparty}/history` }),
  },
  'GET /transfers/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/transfers/${w.transfer}/history` }),
  },
  'GET /payment-intents/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/payment-intents/${w.paidIntent}/history` }),
  },
  'GET /intent-actions/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/intent-actions/${w.action}/history` }),
  },
  'GET /cards/:id/history': { kind: 'owned', apiKeyOnly: true, request: (w) => ({ path: `/cards/${w.card}/history` }) },
  'GET /entity-webhooks/:id/history': {
    kind: 'owned',
    apiKeyOnly: true,
    request: (w) => ({ path: `/entity-webhooks/${w.webhook}/history` }),
  },
  'GET /admin/organizations/:id/events': {
    kind: 'operator',
    request: () => ({ path: '/admin/organizations/org_x/events' }),
  },
  'GET /ledger': { kind: 'list', apiKeyOnly: true, request: () => ({ path: '/ledger' }) },
  'GET /admin/organizations/:id/ledger': {
    kind: 'operator',
    request: () => ({ path: '/admin/organizations/org_x/ledger?mode=sandbox' }),
  },
  // A stream: `follow=false` ends it at the head of the log, so it answers like a list (its events are the webhook bodies, checked in the text).
  'GET /events/stream': {
    kind: 'list',
    apiKeyOnly: true,
    request: () => ({ path: '/events/stream?after_position=0&follow=false' }),
  },
  // Served whether or not the dashboard is built (404 dashboard_not_built then); test/dashboard serves a build.
  'GET /dashboard': { kind: 'public', request: () => ({ path: '/dashboard' }) },
  'GET /dashboard/assets/:file': { kind: 'public', request: () => ({ path: '/dashboard/assets/no-such-file.js' }) },
  // The OpenAPI document and its docs page (docs/decisions/infrastructure.md, "OpenAPI"): the same for everyone, no key.
  'GET /openapi.json': { kind: 'public', request: () => ({ path: '/openapi.json' }) },
  'GET /docs': { kind: 'public', request: () => ({ path: '/docs' }) },
  'GET /docs/:asset': { kind: 'public', request: () => ({ path: '/docs/swagger-initializer.js' }) },
  'GET /events/:id/proof': { kind: 'owned', apiKeyOnly: true, request: (w) => ({ path: `/events/${w.event}/proof` }) },
  'GET /admin/audit/checkpoints': { kind: 'operator', request: () => ({ path: '/admin/audit/checkpoints' }) },
  'GET /admin/audit/checkpoints/consistency': {
    kind: 'operator',
    request: () => ({ path: '/admin/audit/checkpoints/consistency?first=1&second=2' }),
  },
};

const MERCHANT = {
  name: 'Sandbox Books',
  mcc: '5942',
  city: 'Lagos',
  state: 'LA',
  postal_code: '100001',
  country: 'NG',
};
const WALLET_ACTION = {
  action: 'confirm',
  category: 'collections',
  payment_type: 'walletpay-acq',
  payment_type_data: { billing_address: { country: 'GB' }, auth_model: '3ds_disabled' },
  customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
};

function cardBody(w: World) {
  const cardholder = {
    first_name: 'Ada',
    last_name: 'Okafor',
    email: 'ada@example.com',
    phone_number: '+2348012345678',
  };
  return { account_id: w.account, card_name: 'Matrix card', cardholder, currency: 'USD', amount: 10_000 };
}

function transfer(w: World) {
  return {
    account_id: w.account,
    payment_detail_id: w.paymentDetail,
    amount: 100,
    payment_type: 'bank-transfer',
    unique_reference: `matrix-${Math.random().toString(36).slice(2)}`,
  };
}
