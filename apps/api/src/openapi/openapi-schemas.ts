import { BANK_SCHEMES, CHAINS, PAYMENT_METHODS } from '@app/domain';
import { apiKeySchema } from '@app/read-models/access/api-key.schema';
import {
  accountDetailsSchema,
  accountSchema,
  sandboxTransactionSchema,
} from '@app/read-models/accounts/account.schema';
import { statementEntrySchema, statementLineSchema } from '@app/read-models/accounts/statement-entry.schema';
import { counterpartyLookupSchema, counterpartySchema } from '@app/read-models/counterparties/counterparty.schema';
import { ledgerEnvelopeSchema } from '@app/read-models/ledger/ledger.schema';
import { transferSchema } from '@app/read-models/transfers/transfer.schema';
import {
  cardCreatedSchema,
  cardDeletedSchema,
  cardDetailsSchema,
  cardListSchema,
  cardReassignedSchema,
  cardSchema,
  cardStatusChangeSchema,
} from '@app/read-models/cards/card.schema';
import { cardTransactionSchema } from '@app/read-models/cards/card-transaction.schema';
import { paymentIntentSchema, refundSchema } from '@app/read-models/collections/payment-intent.schema';
import { intentActionSchema } from '@app/read-models/collections/intent-action.schema';
import { documentSchema } from '@app/read-models/onboarding/document.schema';
import {
  businessEntitySchema,
  businessEntityUpdateSchema,
  entitySummarySchema,
  individualEntitySchema,
  individualEntityUpdateSchema,
  quickStartEntitySchema,
} from '@app/read-models/onboarding/entity.schema';
import { webhookLogSchema } from '@app/read-models/webhooks/webhook-log.schema';
import {
  webhookCreatedSchema,
  webhookDeletedSchema,
  webhookRecoverAcceptedSchema,
  webhookResendAcceptedSchema,
  webhookSchema,
  webhookSecretRotatedSchema,
  webhookTestDispatchedSchema,
} from '@app/read-models/webhooks/webhook.schema';
import {
  amount,
  anyObject,
  arrayOf,
  bool,
  constant,
  country2,
  currency,
  dataEnvelope,
  int,
  ms,
  nullable,
  obj,
  oneOfValues,
  ref,
  str,
  successEnvelope,
  type Schema,
} from '@app/read-models/schema-dsl';
import { eventHistorySchema, eventSchema } from './event.schema';

/**
 * The response side of the contract, as JSON Schema components (request bodies and queries are
 * the DTO classes, decorated with @ApiProperty). Enumerations come from the domain's own constants.
 * A resource whose schema sits beside its presenter (`<resource>.schema.ts` in libs/read-models)
 * has one source: the presenter returns the schema's type (`Infer`), so the compiler holds it to
 * the document. The others are written here.
 */

const fieldError = obj({ field: str('The field, with its path (profile.address.line1)'), message: str() });

/** Everything but `status`, which the error envelope takes ("error"): the 409 of a duplicate reference carries the original this way. */
const withoutStatus = (schema: Schema): Record<string, Schema> => {
  const { status: _status, ...rest } = schema.properties as Record<string, Schema>;
  return rest;
};

const errorBase = {
  status: constant('error'),
  code: str(
    'Machine-readable, snake_case: validation_error, invalid_json, unauthorized, forbidden, sandbox_only, not_found, insufficient_funds…',
    { pattern: '^[a-z][a-z0-9_]*$' },
  ),
  message: str('What went wrong, for people'),
  errors: arrayOf(fieldError, 'The fields at fault (empty when none is)'),
};

const paymentDetailBlocks = {
  bank: obj({ account_number: str(), account_name: nullable(str()), scheme: oneOfValues(BANK_SCHEMES), code: str() }),
  momo: obj({ phone_number: str('E.164'), provider: str() }),
  wallet: obj({ address: str(), chain: oneOfValues(CHAINS) }),
  book: obj({ account_id: str('acc_… of the same organization') }),
};

const BLOCK_OF: Record<(typeof PAYMENT_METHODS)[number], keyof typeof paymentDetailBlocks> = {
  'bank-transfer': 'bank',
  'momo-transfer': 'momo',
  'stablecoin-transfer': 'wallet',
  'book-transfer': 'book',
};
/** `PaymentDetailBank`, `PaymentDetailMomo`, … : the component of one payment method. */
const paymentDetailName = (method: (typeof PAYMENT_METHODS)[number]): string =>
  `PaymentDetail${BLOCK_OF[method][0].toUpperCase()}${BLOCK_OF[method].slice(1)}`;
const paymentDetail = (method: (typeof PAYMENT_METHODS)[number]): Schema =>
  obj(
    {
      id: str('pmd_…: the payment_detail_id of transfers'),
      object: constant('payment_detail'),
      counterparty_id: str(),
      entity_id: str(),
      payment_method: constant(method),
      currency: currency(),
      country: country2(),
      [BLOCK_OF[method]]: paymentDetailBlocks[BLOCK_OF[method]],
      status: oneOfValues(['active', 'inactive'], 'inactive once its counterparty is deactivated'),
      created: ms(),
      updated: ms(),
    },
    { description: `payment_method ${method}: the ${BLOCK_OF[method]} block` },
  );

export const COMPONENT_SCHEMAS: Record<string, Schema> = {
  Error: {
    ...obj(errorBase, { open: true }),
    description:
      'The one error envelope (decisions §2). Some errors add fields (a duplicate reference carries the original).',
  },
  RateLimitError: obj(
    {
      ...errorBase,
      retry_after: int('Seconds'),
      limit_type: oneOfValues(['requests_per_second', 'card_creation_per_hour', 'event_streams']),
      current_count: int(),
      limit: int(),
    },
    { description: 'Over a rate limit (decisions §2): code rate_limited, with a Retry-After header' },
  ),
  DuplicateTransferError: obj(
    { ...errorBase, ...withoutStatus(transferSchema), transfer: transferSchema },
    {
      description:
        'A transfer with this unique_reference exists for the account (code duplicate_unique_reference): the original transfer, its fields at the top level and whole under `transfer`',
    },
  ),
  DuplicatePaymentIntentError: obj(
    { ...errorBase, ...withoutStatus(paymentIntentSchema), payment_intent: paymentIntentSchema },
    {
      description:
        'A payment intent with this reference exists for the account (code duplicate_reference): that intent, its fields at the top level and whole under `payment_intent`',
    },
  ),
  DuplicateInflowError: obj(
    { ...errorBase, ...withoutStatus(statementEntrySchema), transaction: ref('AccountTransaction') },
    {
      description:
        'An inflow with this reference was recorded on the account (code duplicate_reference): the first one',
    },
  ),

  StyleAMeta: obj({
    pagination: obj({ has_more: bool(), next_cursor: nullable(str('Pass as `cursor` for the next page')) }),
  }),
  StyleBPagination: obj({
    has_next: bool(),
    has_previous: bool(),
    next_cursor: nullable(str('Pass as `next_cursor` for older items')),
    prev_cursor: nullable(str('Pass as `prev_cursor` for newer items')),
  }),

  ApiKey: apiKeySchema,
  ApiKeyWithSecret: obj({
    ...(apiKeySchema.properties as Record<string, Schema>),
    key: str('The key (sk_test_… or sk_live_…): shown in this response only'),
  }),
  EntityToken: obj({ token: str('etk_…'), entity_id: str(), expires_at: ms() }),

  IndividualEntity: individualEntitySchema,
  BusinessEntity: businessEntitySchema,
  Entity: {
    oneOf: [ref('IndividualEntity'), ref('BusinessEntity')],
    discriminator: {
      propertyName: 'type',
      mapping: { individual: '#/components/schemas/IndividualEntity', business: '#/components/schemas/BusinessEntity' },
    },
  },
  QuickStartEntity: quickStartEntitySchema,
  Document: documentSchema,
  IndividualEntityUpdate: individualEntityUpdateSchema,
  BusinessEntityUpdate: businessEntityUpdateSchema,
  EntitySummary: entitySummarySchema,
  Account: accountSchema,
  AccountDetails: accountDetailsSchema,
  SandboxTransaction: sandboxTransactionSchema,
  AccountTransaction: {
    ...statementEntrySchema,
    description: 'An entry of the account statement, with the balance after it',
  },

  Counterparty: counterpartySchema,
  // A discriminator selects named schemas only (redocly's no-illogical-composition-keywords): one component per payment method.
  PaymentDetail: {
    description: 'Payment details of a counterparty: the block of its payment_method (bank, momo, wallet or book)',
    oneOf: PAYMENT_METHODS.map((method) => ref(paymentDetailName(method))),
    discriminator: {
      propertyName: 'payment_method',
      mapping: Object.fromEntries(
        PAYMENT_METHODS.map((method) => [method, `#/components/schemas/${paymentDetailName(method)}`]),
      ),
    },
  },
  ...Object.fromEntries(PAYMENT_METHODS.map((method) => [paymentDetailName(method), paymentDetail(method)])),
  CounterpartyLookup: counterpartyLookupSchema,
  BankCodes: successEnvelope(
    arrayOf(obj({ bank_code: str(), bank_name: str(), swift_bic: nullable(str()) })),
    'The banks of a country',
  ),

  Transfer: transferSchema,

  PaymentIntent: paymentIntentSchema,
  PaymentIntentWithAction: obj(
    { ...(paymentIntentSchema.properties as Record<string, Schema>), intent_action: ref('IntentAction') },
    { description: 'Created and confirmed in one call: the intent with its action embedded' },
  ),
  IntentAction: intentActionSchema,
  Refund: refundSchema,

  Card: cardSchema,
  CardCreated: cardCreatedSchema,
  CardDetails: cardDetailsSchema,
  CardList: cardListSchema,
  CardStatusChange: cardStatusChangeSchema,
  CardDeleted: cardDeletedSchema,
  CardReassigned: cardReassignedSchema,
  CardTransaction: cardTransactionSchema,
  CardTransactionEnvelope: dataEnvelope(ref('CardTransaction')),
  CardTransactionList: dataEnvelope(
    obj({
      payments: arrayOf(ref('CardTransaction')),
      pagination: obj({
        order: constant('desc'),
        has_next: bool(),
        has_previous: bool(),
        limit: int(),
        next_cursor: nullable(str()),
        previous_cursor: nullable(str()),
      }),
    }),
  ),

  Webhook: webhookSchema,
  WebhookCreated: webhookCreatedSchema,
  WebhookDeleted: webhookDeletedSchema,
  WebhookTestDispatched: webhookTestDispatchedSchema,
  WebhookResendAccepted: webhookResendAcceptedSchema,
  WebhookRecoverAccepted: webhookRecoverAcceptedSchema,
  WebhookSecretRotated: webhookSecretRotatedSchema,
  WebhookLog: webhookLogSchema,

  Event: eventSchema,
  EventHistory: eventHistorySchema,
  Ledger: ledgerEnvelopeSchema,

  SignedCheckpoint: obj(
    {
      tree_size: int('Leaves (events) in the tree: every event up to last_position'),
      last_position: int('Global position of the last event in the tree'),
      root_hash: str('RFC 6962 Merkle tree hash over the leaves, lowercase hex', { pattern: '^[0-9a-f]{64}$' }),
      timestamp: ms('When it was signed'),
      key_id: str('Hex SHA-256 of the signing key’s DER SubjectPublicKeyInfo'),
      signature: str('Ed25519 over the checkpoint’s signed body, base64'),
    },
    { description: 'A signed checkpoint over the log (docs/decisions/audit.md, "Signed checkpoints")' },
  ),
  CheckpointKey: obj({
    public_key: str('Ed25519, SubjectPublicKeyInfo PEM'),
    key_id: str('Hex SHA-256 of the key’s DER SubjectPublicKeyInfo'),
    algorithm: constant('Ed25519'),
    format: str('What the signature covers: <format>\\n<tree_size>\\n<last_position>\\n<root_hash>\\n<timestamp>\\n'),
  }),
  EventProof: obj(
    {
      object: constant('event_proof'),
      event_id: str('evt_…'),
      leaf: obj({
        position: int(),
        stream_id: str(),
        revision: int(),
        hash: str('The event’s chain hash (metadata.hash), lowercase hex'),
      }),
      leaf_hash: str('SHA-256(0x00 || canonical JSON of leaf), hex'),
      leaf_index: int('0-based index of the leaf in the tree'),
      audit_path: arrayOf(str(), 'Sibling hashes from the leaf up (hex)'),
      checkpoint: ref('SignedCheckpoint'),
      public_key: str('The checkpoints’ Ed25519 key, SubjectPublicKeyInfo PEM'),
    },
    { description: 'The inclusion proof (RFC 9162 §2.1.3) of an event in the latest signed checkpoint' },
  ),
  Statement: dataEnvelope(
    obj({
      account_id: str(),
      currency: currency(),
      period: obj({ from: ms('Start of the UTC month, inclusive'), to: ms('Start of the next month, exclusive') }),
      opening_balance: amount('balance.current at the period’s start'),
      closing_balance: amount('balance.current as_of the period’s end: opening_balance + credits_total − debits_total'),
      credits_total: amount(),
      debits_total: amount(),
      lines: arrayOf(statementLineSchema, 'Oldest first; pending holds and their releases are not lines'),
      positions: obj(
        { first: nullable(int()), last: nullable(int()) },
        { description: 'Log positions of the first and last lines (null when none)' },
      ),
      checkpoint: nullable(ref('SignedCheckpoint')),
      proof: nullable(ref('EventProof')),
    }),
    'A monthly account statement (decisions §17); also text/csv and application/pdf',
  ),
  AuditCheckpoints: obj(
    { key: ref('CheckpointKey'), data: arrayOf(ref('SignedCheckpoint')), meta: ref('StyleAMeta') },
    { description: 'Signed checkpoints, newest first' },
  ),
  CheckpointConsistency: obj(
    {
      key: ref('CheckpointKey'),
      first: ref('SignedCheckpoint'),
      second: ref('SignedCheckpoint'),
      proof: arrayOf(str(), 'Hex hashes, as RFC 9162 §2.1.4.1 orders them'),
    },
    { description: 'Proof that the second checkpoint’s tree extends the first’s (RFC 9162 §2.1.4)' },
  ),
  Health: obj({ status: str() }, { open: true, description: 'Liveness and how far the log readers trail the log' }),
  HealthCheck: obj(
    {
      status: oneOfValues(['ok', 'error', 'shutting_down']),
      info: nullable(anyObject()),
      error: nullable(anyObject()),
      details: anyObject('Each check: its status and what it found'),
    },
    { optional: ['info', 'error'], description: 'A @nestjs/terminus health check' },
  ),
  OpenApiDocument: anyObject('This document (OpenAPI 3.1)'),
};
