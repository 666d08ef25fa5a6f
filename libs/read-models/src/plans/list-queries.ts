import type { IQuery } from '@nestjs/cqrs';
import type { DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import type { PageQuery, ReadStore } from '@app/platform/read-store/read-store.port';
import { systemClock } from '@app/platform/clock';
import { ListApiKeysHandler } from '../access/list-api-keys.query-handler';
import { ListApiKeysQuery } from '../access/list-api-keys.query';
import { ListAccountTransactionsHandler } from '../accounts/list-account-transactions.query-handler';
import { ListAccountTransactionsQuery } from '../accounts/list-account-transactions.query';
import { ListAccountsHandler } from '../accounts/list-accounts.query-handler';
import { ListAccountsQuery } from '../accounts/list-accounts.query';
import { ListEventsHandler } from '../audit/list-events.query-handler';
import { ListEventsQuery } from '../audit/list-events.query';
import { ListCardTransactionsHandler } from '../cards/list-card-transactions.query-handler';
import { ListCardTransactionsQuery } from '../cards/list-card-transactions.query';
import { ListCardsHandler } from '../cards/list-cards.query-handler';
import { ListCardsQuery } from '../cards/list-cards.query';
import { ListIntentActionsHandler } from '../collections/list-intent-actions.query-handler';
import { ListIntentActionsQuery } from '../collections/list-intent-actions.query';
import { ListPaymentIntentsHandler } from '../collections/list-payment-intents.query-handler';
import { ListPaymentIntentsQuery } from '../collections/list-payment-intents.query';
import { ListCounterpartiesHandler } from '../counterparties/list-counterparties.query-handler';
import { ListCounterpartiesQuery } from '../counterparties/list-counterparties.query';
import { ListPaymentDetailsHandler } from '../counterparties/list-payment-details.query-handler';
import { ListPaymentDetailsQuery } from '../counterparties/list-payment-details.query';
import { ListEntitiesHandler } from '../onboarding/list-entities.query-handler';
import { ListEntitiesQuery } from '../onboarding/list-entities.query';
import { ListTransfersHandler } from '../transfers/list-transfers.query-handler';
import { ListTransfersQuery } from '../transfers/list-transfers.query';
import { ListWebhooksHandler } from '../webhooks/list-webhooks.query-handler';
import { ListWebhooksQuery } from '../webhooks/list-webhooks.query';

/** One `find` a list query handler issued. */
export interface IssuedFind {
  readonly list: string;
  readonly collection: string;
  readonly query: PageQuery;
}

type Page = { limit: number; before?: string; after?: string; range?: PageQuery['range'] };
type Handler = { execute(query: never): Promise<unknown> };

const ORG = 'org_plan';
/** The webhook list joins statistics from the delivery store, which issues no `find`. */
const NO_STATS = { stats: async () => new Map() } as unknown as DeliveryStore;
const ID = 'x_01J0000000000000000000000';
const ACTOR = { kind: 'api_key', organizationId: ORG, mode: 'sandbox', id: 'key_plan' } as const;
const A_PAGES: Page[] = [{ limit: 20 }, { limit: 20, before: ID }];
const CREATED = [
  undefined,
  { field: 'created', gte: 1 },
  { field: 'created', lte: 2 },
  { field: 'created', gte: 1, lte: 2 },
];
const B_PAGES: Page[] = A_PAGES.concat({ limit: 20, after: ID }).flatMap((p) =>
  CREATED.map((range) => ({ ...p, range })),
);

/** Every subset of the optional filters, each set to a value (what a client may combine). */
function subsets(optional: readonly string[]): Record<string, string>[] {
  return optional.reduce<Record<string, string>[]>(
    (all, field) => all.concat(all.map((s) => ({ ...s, [field]: `v_${field}` }))),
    [{}],
  );
}

/**
 * Every list query of the API over the read store with every filter combination its controller can
 * send, paged as its style allows (A: before; B: before or after, and the `created` range). A new
 * list belongs here: the plan test then covers it. (Webhook logs and the scheduler's due query read
 * the delivery store, whose own test checks their plans: sqlite-delivery-store.int.spec.ts.)
 */
export function listQueries(): { list: string; handler: (store: ReadStore) => Handler; queries: IQuery[] }[] {
  const base = { organization_id: ORG, mode: 'sandbox' as const };
  const each = <T>(
    pages: Page[],
    optional: readonly string[],
    make: (filter: Record<string, string>, page: Page) => T,
  ): T[] => subsets(optional).flatMap((f) => pages.map((p) => make(f, p)));
  return [
    {
      list: 'api keys',
      handler: (s) => new ListApiKeysHandler(s),
      queries: A_PAGES.flatMap((p) => [
        new ListApiKeysQuery(ORG, ['sandbox'], p),
        new ListApiKeysQuery(ORG, ['sandbox', 'live'], p),
      ]),
    },
    {
      list: 'accounts',
      handler: (s) => new ListAccountsHandler(s),
      queries: each(A_PAGES, ['entity_id', 'currency'], (f, p) => new ListAccountsQuery({ ...base, ...f }, p)),
    },
    {
      list: 'statement',
      handler: (s) => new ListAccountTransactionsHandler(s),
      queries: A_PAGES.map((p) => new ListAccountTransactionsQuery(ACTOR, ID, p)),
    },
    {
      list: 'entities',
      handler: (s) => new ListEntitiesHandler(s),
      queries: each(
        A_PAGES,
        ['entity_id', 'type', 'status'],
        (f, p) => new ListEntitiesQuery({ ...base, ...f } as never, p),
      ),
    },
    {
      list: 'counterparties',
      handler: (s) => new ListCounterpartiesHandler(s),
      queries: each(
        A_PAGES,
        ['entity_id', 'type', 'status'],
        (f, p) => new ListCounterpartiesQuery({ ...base, ...f }, p),
      ),
    },
    {
      list: 'payment details',
      handler: (s) => new ListPaymentDetailsHandler(s),
      queries: A_PAGES.map((p) => new ListPaymentDetailsQuery(ORG, 'sandbox', ID, p)),
    },
    {
      list: 'transfers',
      handler: (s) => new ListTransfersHandler(s),
      queries: each(
        A_PAGES,
        ['account_id', 'status'],
        (f, p) => new ListTransfersQuery({ ...base, entity_id: ID, ...f }, p),
      ),
    },
    {
      list: 'webhooks',
      handler: (s) => new ListWebhooksHandler(s, NO_STATS, systemClock),
      queries: A_PAGES.map((p) => new ListWebhooksQuery(ORG, 'sandbox', ID, p)),
    },
    {
      list: 'cards',
      handler: (s) => new ListCardsHandler(s),
      // The controller requires an entity or an account (or both).
      queries: each(
        B_PAGES.filter((p) => !p.range),
        ['entity_id', 'account_id'],
        (f, p) => (Object.keys(f).length ? new ListCardsQuery({ ...base, deleted: false, ...f }, p) : null),
      ).filter((q) => q !== null),
    },
    {
      list: 'card transactions',
      handler: (s) => new ListCardTransactionsHandler(s),
      queries: B_PAGES.filter((p) => !p.range).map((p) => new ListCardTransactionsQuery({ ...base, card_id: ID }, p)),
    },
    {
      list: 'payment intents',
      handler: (s) => new ListPaymentIntentsHandler(s),
      queries: each(
        B_PAGES,
        ['entity_id', 'status', 'reference', 'currency', 'account_id'],
        (f, p) => new ListPaymentIntentsQuery({ ...base, ...f }, p),
      ),
    },
    {
      list: 'intent actions',
      handler: (s) => new ListIntentActionsHandler(s),
      queries: each(
        B_PAGES,
        ['entity_id', 'currency', 'reference', 'payment_type', 'status', 'payment_intent_id', 'account_id'],
        (f, p) => new ListIntentActionsQuery({ ...base, ...f }, p),
      ),
    },
    {
      list: 'events',
      handler: (s) => new ListEventsHandler(s),
      queries: each(
        CREATED.map((r) => ({ limit: 20, range: r })),
        ['type', 'resource_type', 'resource_id', 'entity_id'],
        (f, p) =>
          new ListEventsQuery(
            { ...base, ...f },
            { afterPosition: 7, limit: p.limit, createdFrom: p.range?.gte, createdTo: p.range?.lte },
          ),
      ),
    },
  ];
}

/** Runs every list query through its real handler against a store that records the `find` it receives. */
export async function issuedFinds(): Promise<IssuedFind[]> {
  const issued: IssuedFind[] = [];
  for (const { list, handler, queries } of listQueries()) {
    let current: IssuedFind[] = [];
    const recorder = {
      // A handler that checks tenancy on a document first (the statement, on its account) finds it the actor's.
      get: async (_collection: string, id: string) => ({ id, organization_id: ORG, mode: 'sandbox' }),
      find: async (collection: string, query: PageQuery) => {
        current.push({ list, collection, query });
        return { items: [], hasMore: false };
      },
    } as unknown as ReadStore;
    for (const query of queries) {
      current = [];
      await handler(recorder).execute(query as never);
      if (current.length !== 1) throw new Error(`${list}: expected one find per query, saw ${current.length}`);
      issued.push(...current);
    }
  }
  return issued;
}
