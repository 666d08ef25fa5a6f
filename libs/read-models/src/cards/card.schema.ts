import {
  amount,
  arrayOf,
  bool,
  constant,
  currency,
  dataEnvelope,
  int,
  ms,
  nullable,
  obj,
  oneOfValues,
  ref,
  str,
  stringMap,
  type Infer,
  type Typed,
} from '../schema-dsl';

/**
 * The card resource and its answers: the OpenAPI components `Card`, `CardCreated`, `CardDetails`,
 * `CardList` and the status, deletion and reassignment answers, and the types the presenters
 * (card.presenter.ts) return.
 */

const CARD_STATUSES = ['active', 'blocked', 'fraud'] as const;

const limits = {
  open: bool('false blocks every transaction here'),
  cumulative_amount_limit: nullable(int()),
  cycle_transaction_count: nullable(int()),
  daily_amount_limit: nullable(int()),
  daily_transaction_count: nullable(int()),
  transaction_amount_limit: nullable(int()),
};
const usageNames = <P extends string>(prefixes: readonly P[]) =>
  prefixes.flatMap((p) => [`${p}_used`, `${p}_hold`, `${p}_balance`] as const);
const ENTRY_USAGE = usageNames([
  'cumulative_amount',
  'cycle_transaction_count',
  'daily_amount_limit',
  'daily_transaction_count',
]);
const CARD_USAGE = usageNames(['amount', 'daily_transaction_count', 'daily_amount_limit', 'cycle_transaction_count']);
// Object.fromEntries loses the names; the cast gives them back (one field per name, an integer each).
const usage = <N extends string>(names: readonly N[]) =>
  Object.fromEntries(
    names.map((n) => [n, int('Usage (read-only): used, held by pending authorizations, or left')]),
  ) as Record<N, Typed<number>>;
const mccControl = obj(
  { mcc: str('4-digit merchant category code', { pattern: '^\\d{4}$' }), ...limits, ...usage(ENTRY_USAGE) },
  { optional: ENTRY_USAGE },
);
const groupControl = obj({ group_name: str(), ...limits, ...usage(ENTRY_USAGE) }, { optional: ENTRY_USAGE });
const individualControls = obj(
  {
    billing_cycle: oneOfValues(['Daily', 'Weekly', 'Monthly', 'Yearly']),
    billing_cycle_day: str(),
    cycle_transaction_count: nullable(int()),
    daily_amount_limit: nullable(int()),
    daily_transaction_count: nullable(int()),
    transaction_amount_limit: nullable(int()),
  },
  {
    optional: [
      'billing_cycle',
      'billing_cycle_day',
      'cycle_transaction_count',
      'daily_amount_limit',
      'daily_transaction_count',
      'transaction_amount_limit',
    ],
    description: 'Empty for disposable cards',
  },
);
const cardBilling = obj({
  address_line_1: str(),
  address_line_2: nullable(str()),
  city: str(),
  state: str(),
  postal_code: str(),
});
const CARD_CREDENTIALS = ['number', 'cvv'] as const;
/** The card; `usageFields` (card details only) sit between the controls and the billing address. */
const card = <U extends Record<string, Typed<number>>>(credentials: 'with' | 'without' | 'maybe', usageFields: U) =>
  obj(
    {
      id: str('crd_…'),
      object: constant('card'),
      name: str(),
      status: oneOfValues(CARD_STATUSES),
      type: oneOfValues(['disposable', 'virtual']),
      entity_id: str(),
      account_id: str(),
      currency: currency(),
      amount: amount('The spend limit'),
      first_name: str(),
      last_name: str(),
      cardholder: obj({ first_name: str(), last_name: str(), email: str(), phone_number: str('E.164') }),
      number: str('Full PAN (sensitive)', { pattern: '^\\d{13,19}$' }),
      last_four: str(undefined, { pattern: '^\\d{4}$' }),
      expiration_month: str('MM'),
      expiration_year: str('YY'),
      cvv: str('Sensitive', { pattern: '^\\d{3,4}$' }),
      individual_controls: individualControls,
      individual_mcc_controls: arrayOf(mccControl),
      mcc_group_controls: arrayOf(groupControl),
      ...usageFields,
      billing: nullable(cardBilling),
      shipping: { type: 'null', description: 'Physical cards only; always null here' },
      transaction_alerts: bool(),
      authorization_fallback: oneOfValues(
        ['approve', 'decline'],
        'Decisions §16: what decides when the authorization endpoint gives no valid answer in time',
      ),
      metadata: stringMap(),
      deleted: nullable(ms('When it was deleted (soft delete)')),
      created: ms(),
      updated: ms(),
    },
    {
      optional: credentials === 'with' ? [] : CARD_CREDENTIALS,
      description: credentials === 'without' ? undefined : 'The card, with its credentials',
    },
  );

/** A card in the list: the list document's fields. */
const cardSummarySchema = obj({
  id: str(),
  name: str(),
  status: oneOfValues(CARD_STATUSES),
  type: oneOfValues(['disposable', 'virtual']),
  last_four: str(),
  account_id: str(),
  created: ms(),
});

export const cardSchema = card('maybe', {});

export const cardCreatedSchema = obj(
  { status: constant('success'), data: card('with', {}) },
  { description: 'The new card, with its number and CVV (this response only)' },
);

export const cardDetailsSchema = dataEnvelope(
  card('with', usage(CARD_USAGE)),
  'The card with its credentials and usage (usage fields at the top level of data)',
);

export const cardListSchema = dataEnvelope(
  obj({
    cards: arrayOf(cardSummarySchema),
    pagination: ref('StyleBPagination'),
  }),
  'Cards of the entity or account, newest first; deleted cards are excluded',
);

export const cardStatusChangeSchema = dataEnvelope(
  obj({ id: str(), status: oneOfValues(CARD_STATUSES), updated: ms() }),
);

export const cardDeletedSchema = dataEnvelope(obj({ id: str(), status: oneOfValues(CARD_STATUSES), deleted: ms() }));

export const cardReassignedSchema = dataEnvelope(
  obj({ card_id: str(), account_id: str(), currency: currency(), updated: ms() }),
);

export type CardBody = Infer<typeof cardSchema>;
export type CardSummaryBody = Infer<typeof cardSummarySchema>;
