import { CARD_AUTHORIZATION_REQUEST, WEBHOOK_EVENT_CATALOGUE, type WebhookEventGroup } from '@app/domain';
import {
  amount,
  bool,
  constant,
  currency,
  int,
  ms,
  obj,
  oneOfValues,
  ref,
  str,
  type Schema,
} from '@app/read-models/schema-dsl';

/**
 * The resource each public event carries as `data` (the mapping of libs/webhook-delivery/src/mapping:
 * the resource as the API shows it after the event). payment_intent.refunded carries the refund;
 * card_authorizations.request the card transaction as it would be (pending), and its answer decides it.
 */
const DATA_OF: Record<WebhookEventGroup, (name: string) => string> = {
  accounts: () => 'Account',
  account_details: () => 'AccountDetails',
  inflows: () => 'Inflow',
  outflows: () => 'Transfer',
  entities: () => 'Entity',
  funding_sessions: () => 'FundingSession',
  payment_intent: (name) => (name === 'refunded' ? 'Refund' : 'PaymentIntent'),
  cards: () => 'Card',
  card_transactions: () => 'CardTransaction',
  webhooks: () => 'Webhook',
  card_authorizations: () => 'CardTransaction',
};

/** Resources only events carry (no route answers them). */
export const WEBHOOK_ONLY_SCHEMAS: Record<string, Schema> = {
  Inflow: obj(
    {
      id: str('txn_…'),
      object: constant('transaction'),
      type: constant('credit'),
      account_id: str(),
      amount: amount(),
      currency: currency(),
      status: oneOfValues(['settled', 'failed']),
      created_at: str(undefined, { format: 'date-time' }),
    },
    { description: 'Money that arrived on an account (inflows.completed), or did not (inflows.failed)' },
  ),
  FundingSession: obj(
    {
      id: str('fds_…'),
      object: constant('funding_session'),
      entity_id: str(),
      account_id: str(),
      amount: amount(),
      currency: currency(),
      status: oneOfValues(['completed', 'failed']),
      created: ms(),
      updated: ms(),
    },
    { description: 'A funding session, as its events carry it' },
  ),
};

/** The signature headers of every delivery (Standard Webhooks: decisions §9 and §15). */
const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (evt_…): the same on every attempt, so a receiver can drop repeats',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt: refuse old ones',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the webhook secret; during a rotation two, space-separated, the new first',
    schema: { type: 'string' },
  },
];

const DELIVERY_ANSWERS = {
  '200': {
    description:
      'Any 2xx acknowledges the delivery; anything else, or no answer within the timeout, is retried with backoff',
  },
  '400': { description: 'Refused (a bad signature, an old timestamp): retried with backoff like any other failure' },
};

/** Decisions §16: the card program's endpoint decides, within CARD_AUTHORIZATION_TIMEOUT_MS; asked once, never retried. */
const AUTHORIZATION_ANSWERS = {
  '200': {
    description:
      'The decision (any 2xx with this body): approved in full, for `amount` (a partial approval), or declined (`declined_by_endpoint`)',
    content: {
      'application/json': {
        schema: obj(
          {
            approved: bool(),
            amount: int('A partial approval: 1 ≤ amount ≤ the requested amount', { minimum: 1 }),
            reason: str('Why, for the card transaction', { maxLength: 100 }),
          },
          { optional: ['amount', 'reason'], open: true },
        ),
      },
    },
  },
  '400': {
    description:
      'Anything else, a bad body or no answer in time: the card’s authorization_fallback decides (default decline)',
  },
};

const pascal = (s: string) => s.replace(/(^|[._])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());

/**
 * OpenAPI 3.1 `webhooks`: one POST per catalogued event (libs/domain/src/webhooks/catalogue.ts), its
 * body the delivered envelope with `event` fixed and `data` typed, so client generators type each
 * payload. A 2xx acknowledges; anything else (or no answer) is retried.
 */
export function webhooksSection(): Record<string, { post: Record<string, unknown> }> {
  const section: Record<string, { post: Record<string, unknown> }> = {};
  for (const [group, names] of Object.entries(WEBHOOK_EVENT_CATALOGUE) as Array<
    [WebhookEventGroup, readonly string[]]
  >) {
    for (const name of names) {
      const event = `${group}.${name}`;
      const data = DATA_OF[group](name);
      section[event] = {
        post: {
          operationId: `on${pascal(event)}`,
          summary: `${event}: data is a ${data}`,
          tags: ['Webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: obj(
                  {
                    id: str('evt_…: the event id (webhook-id)'),
                    event: constant(event),
                    created: int('Unix time in milliseconds of the event'),
                    entity_id: str('The entity the event belongs to'),
                    test: constant(
                      true,
                      'Present on test events (POST /webhook-tests): data is a sample that exists nowhere else',
                    ),
                    data: ref(data),
                  },
                  { optional: ['test'], description: `The ${event} event` },
                ),
              },
            },
          },
          responses: event === CARD_AUTHORIZATION_REQUEST ? AUTHORIZATION_ANSWERS : DELIVERY_ANSWERS,
        },
      };
    }
  }
  return section;
}
