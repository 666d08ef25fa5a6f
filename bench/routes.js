'use strict';
// The write routes measured beside POST /transfer: each prepares what its requests act on (through
// the API, before any load), then gives the n-th request. Bodies follow test/isolation/routes.ts and
// the e2e fixtures; every answer must be 2xx, or the run prints the route's errors.
const { must } = require('./client');
const { BANK, entity, fundedAccounts, counterparty } = require('./world');
const { IDEMPOTENCY_ROUTES } = require('./idempotency');

const SPREAD = 20; // resources a route's requests rotate over, so no one stream takes every write
const PERSON = {
  first_name: 'Ada',
  last_name: 'Okafor',
  email: 'ada@example.com',
  date_of_birth: '1990-01-31',
  country_of_residence: 'NG',
};
const BUSINESS = {
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
const CARDHOLDER = { first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com', phone_number: '+2348012345678' };
const MERCHANT = {
  name: 'Sandbox Books',
  mcc: '5942',
  city: 'Lagos',
  state: 'LA',
  postal_code: '100001',
  country: 'NG',
};
const post = (path, body) => ({ method: 'POST', path, body });
const pick = (list, n) => list[n % list.length];
const run = `${process.pid}-${Date.now().toString(36)}`; // unique references across runs on one DATA_DIR

async function counterparties(base) {
  const e = await entity(base, 'Payee');
  const list = [];
  for (let i = 0; i < SPREAD; i++) list.push(await counterparty(base, e));
  return { entity: e, counterparties: list };
}

/**
 * Cards: at most CARD_CREATION_LIMIT_PER_HOUR (100) per entity, so the cards spread over
 * BENCH_CARD_ENTITIES (100) entities with one account each: room for 10,000 cards in the run.
 */
async function cardAccounts(base) {
  const accounts = [];
  for (let i = 0; i < Number(process.env.BENCH_CARD_ENTITIES || 100); i++) {
    const e = await entity(base, `Cardholder${i}`);
    accounts.push((await must(base, 'POST', '/accounts', { entity_id: e, currency: 'USD' })).id);
  }
  return { accounts };
}

/** Cards with room for every authorization of the run, on funded accounts. */
async function cards(base) {
  const { accounts } = await withAccounts(base);
  const list = [];
  for (const account of accounts)
    list.push(
      (
        await must(base, 'POST', '/virtual-cards', {
          account_id: account,
          card_name: 'Bench',
          cardholder: CARDHOLDER,
          currency: 'USD',
          amount: 1e12,
        })
      ).data.id,
    );
  return { cards: list };
}

async function individuals(base) {
  const list = [];
  for (let i = 0; i < SPREAD; i++) list.push((await must(base, 'POST', '/individual-entities', PERSON)).id);
  return { entities: list };
}

async function webhookOf(base, env) {
  const { entity: e } = await withEntity(base);
  const hook = await must(base, 'POST', '/entity-webhooks', {
    entity_id: e,
    url: env.webhookUrl('/tests'),
    secret: 'bench-test-secret-0123456789',
    enabled_events: { outflows: ['created'] },
  });
  return { entity: e, webhook: hook.id };
}

const withEntity = async (base) => ({ entity: await entity(base, 'Route') });
const withAccounts = async (base) => {
  const e = await entity(base, 'Holder');
  return { entity: e, accounts: await fundedAccounts(base, e, SPREAD) };
};

/** `prepare(base, env)`: env.webhookUrl(path) is the bench's own HTTPS receiver (the API checks a webhook's destination). */
const ROUTES = [
  {
    name: 'POST /entities (quick start)',
    request: (_c, n) =>
      post('/entities', {
        type: 'individual',
        first_name: 'Q',
        last_name: `S${n}`,
        email: 'q@example.com',
        country: 'US',
      }),
  },
  { name: 'POST /individual-entities', request: () => post('/individual-entities', PERSON) },
  {
    name: 'PATCH /individual-entities/:id',
    prepare: individuals,
    request: (c, n) => ({
      method: 'PATCH',
      path: `/individual-entities/${pick(c.entities, n)}`,
      body: { person: { first_name: `Ada${n}` } },
    }),
  },
  { name: 'POST /business-entities', request: () => post('/business-entities', BUSINESS) },
  {
    name: 'POST /accounts',
    prepare: withEntity,
    request: (c) => post('/accounts', { entity_id: c.entity, currency: 'USD' }),
  },
  {
    name: 'POST /account-details',
    prepare: withAccounts,
    request: (c, n) => post('/account-details', { account_id: pick(c.accounts, n), asset_type: 'fiat' }),
  },
  {
    name: 'POST /sandbox/accounts/:id/fund',
    prepare: withAccounts,
    request: (c, n) => post(`/sandbox/accounts/${pick(c.accounts, n)}/fund`, { amount: 1, currency: 'USD' }),
  },
  {
    name: 'POST /counterparties',
    prepare: withEntity,
    request: (c, n) =>
      post('/counterparties', {
        type: 'individual',
        entity_id: c.entity,
        profile: { first_name: 'Grace', last_name: `H${n}` },
      }),
  },
  {
    name: 'PATCH /counterparties/:id',
    prepare: counterparties,
    request: (c, n) => ({
      method: 'PATCH',
      path: `/counterparties/${pick(c.counterparties, n)}`,
      body: { nickname: `nick-${n}` },
    }),
  },
  {
    name: 'POST /counterparties/:id/payment-details',
    prepare: counterparties,
    request: (c, n) =>
      post(`/counterparties/${pick(c.counterparties, n)}/payment-details`, {
        ...BANK,
        bank: { ...BANK.bank, account_number: String(100000000 + n) },
      }),
  },
  { name: 'POST /entity-tokens', prepare: withEntity, request: (c) => post('/entity-tokens', { entity_id: c.entity }) },
  {
    name: 'POST /entity-webhooks',
    prepare: async (base, env) => ({ ...(await withEntity(base)), url: env.webhookUrl }),
    request: (c, n) =>
      post('/entity-webhooks', {
        entity_id: c.entity,
        url: c.url(`/route-${n}`),
        secret: 'bench-route-secret-0123456789',
        enabled_events: { outflows: ['created'] },
      }),
  },
  {
    name: 'POST /virtual-cards',
    prepare: cardAccounts,
    request: (c, n) =>
      post('/virtual-cards', {
        account_id: pick(c.accounts, n),
        card_name: `Bench ${n}`,
        cardholder: CARDHOLDER,
        currency: 'USD',
        amount: 10_000,
      }),
  },
  {
    name: 'POST /sandbox/cards/:id/authorizations',
    prepare: cards,
    request: (c, n) =>
      post(`/sandbox/cards/${pick(c.cards, n)}/authorizations`, {
        amount: 1,
        currency: 'USD',
        merchant: MERCHANT,
        capture: true,
      }),
  },
  {
    name: 'POST /webhook-tests',
    prepare: webhookOf,
    request: (c) =>
      post('/webhook-tests', {
        webhook_id: c.webhook,
        event_group: 'outflows',
        event_name: 'created',
        entity_id: c.entity,
      }),
  },
  {
    name: 'POST /payment-intents',
    prepare: withAccounts,
    request: (c, n) =>
      post('/payment-intents', {
        currency: 'USD',
        amount: 500,
        account_id: pick(c.accounts, n),
        reference: `bench-${run}-${n}`,
      }),
  },
  // The cost of Idempotency-Key on POST /transfer: BENCH_ROUTES=idempotency measures these alone.
  ...IDEMPOTENCY_ROUTES,
];

/** BENCH_ROUTES=accounts,cards keeps the routes whose name contains one of the words (all by default). */
function selectedRoutes(filter = process.env.BENCH_ROUTES) {
  if (!filter) return ROUTES;
  const words = filter.split(',').map((w) => w.trim().toLowerCase());
  return ROUTES.filter((r) => words.some((w) => r.name.toLowerCase().includes(w)));
}

module.exports = { selectedRoutes };
