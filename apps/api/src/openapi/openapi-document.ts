import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { READ_MODEL_EXTENSION } from './api-route.decorator';
import { COMPONENT_SCHEMAS } from './openapi-schemas';
import { routeFacts, type RouteFacts } from './route-facts';
import type { Schema } from '@app/read-models/schema-dsl';
import { WEBHOOK_ONLY_SCHEMAS, webhooksSection } from './webhooks-section';
import { API_VERSIONS, CURRENT_API_VERSION } from '@app/domain';

/** The OpenAPI 3.1 document as JSON (the served `/openapi.json`). */
export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Array<Record<string, unknown>>;
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }>; description?: string };
  responses: Record<string, ResponseObject>;
  [extension: string]: unknown;
}

export interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
}

/** The project's version, from its package.json: the nearest one up from here (src in tests, dist under npm start). */
function projectVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'payments-platform' && pkg.version) return pkg.version;
  }
  return '0.0.0';
}

const DESCRIPTION = `
The payments platform's HTTP API: onboarding, accounts, counterparties, payouts, collections, cards, webhooks and the audit log.
Prose: docs/api/payments-api-spec.md and docs/api/product-decisions.md; this document is generated from the controllers and DTOs, and every
response of the end-to-end suite is checked against it.

- **Authentication**: \`Authorization: Bearer <credential>\` (the scheme in any case; one Authorization header): an API key (\`sk_test_…\` sandbox, \`sk_live_…\` live), an entity token
  (\`etk_…\`, scoped to one entity), or for \`/admin\` the operator token (\`PAYMENTS_ADMIN_TOKEN\`; unset, \`/admin\` answers 404).
- **Errors**: one envelope, \`{"status":"error","code":"<snake_case>","message":"…","errors":[{"field","message"}]}\`. A known path with
  another method answers 405 \`method_not_allowed\` with \`Allow\`; an unknown path 404 \`not_found\`. Every response carries \`x-request-id\`.
- **Success bodies** come in four shapes: the resource itself (bare), \`{status:"success", message, data}\` (bank codes, lookups, entity
  updates, webhook deletion and tests), \`{data}\` (cards, card transactions, history, ledger) and \`{status:"success", data}\` (card creation).
- **Lists**: style A (\`limit\` 1-100, default 20, \`cursor\`; \`{data, meta:{pagination:{has_more, next_cursor}}}\`) and style B
  (\`limit\`, \`next_cursor\`, \`prev_cursor\`; \`{data, pagination:{has_next, has_previous, next_cursor, prev_cursor}}\`); cards and card
  transactions have their own shapes.
- **Idempotency**: any POST, PATCH or DELETE made with a key or token may carry \`Idempotency-Key\`; a replayed answer carries
  \`Idempotent-Replayed: true\`.
- **Rate limits**: a token bucket per API key; every metered answer carries \`RateLimit-Policy\` and \`RateLimit\`
  (draft-ietf-httpapi-ratelimit-headers); over it, 429 \`rate_limited\` with \`Retry-After\`.
- **Versions**: dated, as \`Payments-Version: \${CURRENT_API_VERSION}\` (the current one). A key is pinned to the version current
  when it was created; a request may name another in the \`Payments-Version\` header (unknown: 400 \`invalid_api_version\`); every
  answer says which version it was made under.
- **Browsers**: client apps on \`CORS_ALLOWED_ORIGINS\` call the API with entity tokens; a secret key from another origin's page is
  refused (403 \`secret_key_in_browser\`). Answers are compressed when asked, and GET answers carry an \`ETag\` (\`If-None-Match\` → 304).
- **Amounts** are integers in the smallest currency unit; timestamps are Unix milliseconds unless named \`*_at\` as ISO 8601.
`.trim();

const TAGS: Array<[string, string]> = [
  ['Access', 'API keys and entity tokens'],
  ['Entities', 'Individuals and businesses, KYC documents and onboarding'],
  ['Accounts', 'Accounts, bank coordinates, statements and sandbox funding'],
  ['Counterparties', 'Recipients, their payment details, account lookups and bank codes'],
  ['Transfers', 'Payouts: bank, mobile money, stablecoin and book transfers'],
  ['Collections', 'Payment intents, intent actions (card and wallet), 3-D Secure and refunds'],
  ['Cards', 'Disposable and virtual cards, spending controls and card transactions'],
  ['Webhooks', 'Webhook endpoints, delivery logs and test events'],
  ['Audit', 'The event history, the ledger and signed checkpoints'],
  ['Operator', 'The operator API (live resources have no simulator)'],
  ['Platform', 'Health and this document'],
];

/** Reused answers and headers of the HTTP edge, as components. */
const COMPONENT_RESPONSES: Record<string, ResponseObject> = {
  BadRequest: error(
    'Malformed request: invalid JSON, a key twice in one object or nesting past 64 levels (invalid_json); prototype keys, control characters, unknown fields or query parameters, blank or missing required fields, or a body on a route that takes none (validation_error); more than one Authorization header (invalid_request); an unknown Payments-Version (invalid_api_version)',
  ),
  Unauthorized: error('Missing, malformed, unknown, expired or revoked credential (unauthorized)'),
  PayloadTooLarge: error('The body exceeds 1 MB (payload_too_large)'),
  UnsupportedMediaType: error(
    'The body is of a media type the route does not take (unsupported_media_type); JSON routes take application/json and application/*+json',
  ),
  RateLimited: {
    ...error('Over the rate limit of the API key (rate_limited)', 'RateLimitError'),
    headers: {
      'Retry-After': { $ref: '#/components/headers/RetryAfter' },
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
      RateLimit: { $ref: '#/components/headers/RateLimit' },
    },
  },
  InternalError: error(
    'Something went wrong on our side (internal_error); a retry with the same Idempotency-Key runs again',
  ),
  ServiceUnavailable: {
    ...error(
      'A store the API depends on is not answering or out of space (service_unavailable); retry after Retry-After, with the same Idempotency-Key',
    ),
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  },
};

/** Merged into every write's 503 (so not a component of its own: it would be unused). */
const OVERLOADED: ResponseObject = {
  ...error('More write requests at once than the API takes (overloaded); retry after Retry-After'),
  headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
};

function error(description: string, schema = 'Error'): ResponseObject {
  return { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } };
}

const COMPONENT_HEADERS = {
  XRequestId: {
    description: 'The request id (the caller’s x-request-id when sane, otherwise a new one)',
    required: true,
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: '`true` on an answer replayed for a repeated Idempotency-Key',
    schema: { const: 'true' },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  RateLimitPolicy: {
    description:
      'The API key’s policy (draft-ietf-httpapi-ratelimit-headers): `"api_key";q=<requests per second>;w=1`, the `limit` of a 429; absent when rate limits are off',
    schema: { type: 'string', examples: ['"api_key";q=100;w=1'] },
  },
  RateLimit: {
    description:
      'What is left of it: `"api_key";r=<requests left, at most q>;t=<seconds until r is q again>`; absent when rate limits are off',
    schema: { type: 'string', examples: ['"api_key";r=99;t=1'] },
  },
  ETag: {
    description: 'A weak validator of the body: send it back in If-None-Match for a 304 when nothing changed',
    schema: { type: 'string' },
  },
  PaymentsVersion: {
    description: 'The dated API version the answer was made under: the request’s Payments-Version, else the key’s',
    required: true,
    schema: { type: 'string', enum: [...API_VERSIONS] },
  },
};

const PAYMENTS_VERSION = {
  name: 'Payments-Version',
  in: 'header',
  required: false,
  description: `The dated API version to answer under (default: the key’s, pinned when it was created; without a key ${CURRENT_API_VERSION}); another value answers 400 invalid_api_version`,
  schema: { type: 'string', enum: [...API_VERSIONS] },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry (decisions §13): 1-255 visible ASCII characters; the same key with the same request replays the first answer, with another request 422 idempotency_key_reused, while the first runs 409 idempotency_key_in_use',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

const SECURITY: Record<RouteFacts['caller'], Record<string, string[]>[]> = {
  public: [],
  operator: [{ operator: [] }],
  api_key: [{ api_key: [] }],
  api_key_or_token: [{ api_key: [] }, { entity_token: [] }],
};

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Builds the OpenAPI 3.1 document of the running app: @nestjs/swagger scans the controllers and
 * the DTOs' @ApiProperty decorators, then this adds what every route gets from the HTTP edge, read
 * from the same metadata the guards and interceptors act on (who may call it, Idempotency-Key,
 * the edge's refusals), and the response components.
 */
export function buildOpenApiDocument(app: INestApplication): OpenApiDocument {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Payments platform API')
    .setVersion(projectVersion())
    .setDescription(DESCRIPTION)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sk_test_… | sk_live_…',
        description: 'An API key: sk_test_… (sandbox) or sk_live_… (live)',
      },
      'api_key',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'etk_…',
        description: 'An entity token (POST /entity-tokens): one entity, its key’s mode and rate limit',
      },
      'entity_token',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'The operator token, PAYMENTS_ADMIN_TOKEN (the /admin routes; unset, they answer 404)',
      },
      'operator',
    )
    // Relative: the API that serves this document (GET /openapi.json), whatever host it is reached on.
    .addServer('/', 'The API serving this document');
  for (const [name, description] of TAGS) config.addTag(name, description);
  const generated = SwaggerModule.createDocument(app, config.build()) as unknown as OpenApiDocument;
  // The project is proprietary (package.json: UNLICENSED); redocly's info-license wants it said.
  generated.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
  return complete(generated, routeFacts(app));
}

function complete(doc: OpenApiDocument, facts: RouteFacts[]): OpenApiDocument {
  const schemas = (doc.components.schemas ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(COMPONENT_SCHEMAS))
    if (name in schemas) throw new Error(`OpenAPI: a DTO and a response schema are both named ${name}`);
  doc.components.schemas = {
    ...(to31(schemas) as Record<string, unknown>),
    ...COMPONENT_SCHEMAS,
    ...WEBHOOK_ONLY_SCHEMAS,
  };
  doc.components.responses = COMPONENT_RESPONSES as Record<string, unknown>;
  doc.components.headers = COMPONENT_HEADERS;
  doc.components.parameters = { IdempotencyKey: IDEMPOTENCY_KEY, PaymentsVersion: PAYMENTS_VERSION };
  doc.webhooks = webhooksSection();

  const operationIds = new Map<string, number>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const fact = facts.find((f) => f.method === method && f.path === path);
      if (!fact) throw new Error(`OpenAPI: no route facts for ${method.toUpperCase()} ${path}`);
      if (!operation.operationId || /Controller_/.test(operation.operationId))
        throw new Error(
          `OpenAPI: ${method.toUpperCase()} ${path} (${fact.controller}.${fact.handler}) has no @ApiRoute`,
        );
      operationIds.set(operation.operationId, (operationIds.get(operation.operationId) ?? 0) + 1);
      completeOperation(method, operation, fact, doc.components.schemas);
    }
  }
  // One handler serving several paths (the histories) gets one operation id per path.
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const operation of Object.values(item)) {
      if ((operationIds.get(operation.operationId!) ?? 0) > 1)
        operation.operationId = `${operation.operationId}${pascal(path.split('/')[1])}`;
    }
  }
  return to31(doc) as OpenApiDocument;
}

function completeOperation(method: string, op: Operation, fact: RouteFacts, schemas: Record<string, unknown>): void {
  const readsReadModel = op[READ_MODEL_EXTENSION] === true;
  delete op[READ_MODEL_EXTENSION];
  op.security = SECURITY[fact.caller];
  // x-request-id is set by the edge for every request; handlers that read it do not make it a parameter.
  op.parameters = (op.parameters ?? []).filter(
    (p) => !(p.in === 'header' && String(p.name).toLowerCase() === 'x-request-id'),
  );
  // A handler reading a header (@Headers('last-event-id')) makes @nestjs/swagger list it as required; the route's @ApiHeader says what it is.
  const described = new Set(
    op.parameters.filter((p) => p.in === 'header' && p.description).map((p) => String(p.name).toLowerCase()),
  );
  op.parameters = op.parameters.filter(
    (p) => !(p.in === 'header' && !p.description && described.has(String(p.name).toLowerCase())),
  );
  const authenticated = fact.caller === 'api_key' || fact.caller === 'api_key_or_token';
  const idempotent = authenticated && WRITES.has(method);
  if (idempotent) op.parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  op.parameters.push({ $ref: '#/components/parameters/PaymentsVersion' });
  if (!op.parameters.length) delete op.parameters;
  if (op.requestBody) completeBody(op, fact, schemas);

  const add = (status: number, answer: ResponseObject) => mergeResponse(op, String(status), answer);
  add(400, { $ref: '#/components/responses/BadRequest' });
  if (idempotent)
    add(400, error('An Idempotency-Key that is not 1-255 visible ASCII characters (invalid_idempotency_key)'));
  if (authenticated) {
    add(401, { $ref: '#/components/responses/Unauthorized' });
    add(429, { $ref: '#/components/responses/RateLimited' });
  }
  if (authenticated)
    add(
      403,
      error('A secret key sent by a browser page of an origin not in CORS_ALLOWED_ORIGINS (secret_key_in_browser)'),
    );
  if (fact.caller === 'api_key') add(403, error('An entity token cannot do this: it needs an API key (forbidden)'));
  if (fact.sandboxOnly) add(403, error('A live key cannot use a sandbox simulator (sandbox_only)'));
  if (fact.caller === 'operator') {
    add(401, error('The bearer is not the operator token (unauthorized)'));
    add(404, error('The operator API is off (PAYMENTS_ADMIN_TOKEN unset), or the resource does not exist (not_found)'));
  }
  add(413, { $ref: '#/components/responses/PayloadTooLarge' });
  add(415, { $ref: '#/components/responses/UnsupportedMediaType' });
  if (idempotent) {
    add(
      409,
      error('A request with this Idempotency-Key is still running (idempotency_key_in_use); retry after Retry-After'),
    );
    add(422, error('This Idempotency-Key was used with another request (idempotency_key_reused)'));
  }
  if (method === 'get')
    add(304, {
      description: 'Not Modified: If-None-Match named the ETag of the current answer (no body)',
      headers: { ETag: { $ref: '#/components/headers/ETag' } },
    });
  add(500, { $ref: '#/components/responses/InternalError' });
  // Any route may need a store (the rate-limit bucket, the log, the read models): issue 23. Not
  // one whose 503 is its own answer (readiness: each store's state, not the error envelope).
  if (!op.responses['503']) add(503, { $ref: '#/components/responses/ServiceUnavailable' });
  if (WRITES.has(method)) add(503, OVERLOADED);
  if (readsReadModel)
    add(503, {
      ...error(
        'The read model trails the log past READ_CONSISTENCY_TIMEOUT_MS (read_model_lagging); retry after Retry-After',
      ),
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    });

  for (const [status, answer] of Object.entries(op.responses)) {
    if (answer.$ref) continue;
    const headers: Record<string, unknown> = {
      'x-request-id': { $ref: '#/components/headers/XRequestId' },
      'Payments-Version': { $ref: '#/components/headers/PaymentsVersion' },
      ...(answer.headers ?? {}),
    };
    // Metered once the caller is known: its 2xx and the refusals after authentication.
    if (authenticated && status !== '401') {
      headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimitPolicy' };
      headers.RateLimit = { $ref: '#/components/headers/RateLimit' };
    }
    if (method === 'get' && status.startsWith('2')) headers.ETag = { $ref: '#/components/headers/ETag' };
    if (idempotent && (status.startsWith('2') || status === '409' || status === '422'))
      headers['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
    answer.headers = headers;
  }
  op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** A body with no required field may be left out altogether. */
function completeBody(op: Operation, fact: RouteFacts, schemas: Record<string, unknown>): void {
  const body = op.requestBody!;
  if (!fact.takesBody) throw new Error(`OpenAPI: ${fact.controller}.${fact.handler} documents a body it does not take`);
  const schema = Object.values(body.content)[0]?.schema;
  const target =
    typeof schema?.$ref === 'string' ? (schemas[schema.$ref.split('/').pop()!] as Schema | undefined) : schema;
  body.required = Array.isArray(target?.required) && target.required.length > 0;
}

/**
 * Adds `answer` under `status`, or merges it into the route's own answer there: descriptions are
 * joined (the route's first) and differing bodies become `anyOf`.
 */
function mergeResponse(op: Operation, status: string, answer: ResponseObject): void {
  const own = op.responses[status];
  if (!own) {
    op.responses[status] = answer;
    return;
  }
  const resolved = (r: ResponseObject): ResponseObject =>
    r.$ref ? { ...COMPONENT_RESPONSES[r.$ref.split('/').pop()!] } : r;
  const a = resolved(own);
  const b = resolved(answer);
  const schemaA = a.content?.['application/json']?.schema;
  const schemaB = b.content?.['application/json']?.schema;
  const same = JSON.stringify(schemaA) === JSON.stringify(schemaB);
  const schema = !schemaA ? schemaB : !schemaB || same ? schemaA : { anyOf: [schemaA, schemaB] };
  op.responses[status] = {
    description: a.description === b.description ? a.description : `${a.description}; or: ${b.description}`,
    ...(a.headers || b.headers ? { headers: { ...(b.headers ?? {}), ...(a.headers ?? {}) } } : {}),
    ...(schema ? { content: { 'application/json': { schema } } } : a.content ? { content: a.content } : {}),
  };
}

const pascal = (s: string) => s.replace(/(^|[-_])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());

/** @nestjs/swagger writes a few OpenAPI 3.0 forms; this turns them into 3.1 (JSON Schema 2020-12). */
function to31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(to31);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = to31(value);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.$ref || out.allOf || out.oneOf) return { anyOf: [out, { type: 'null' }] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  } else if (out.nullable === false) delete out.nullable;
  return out;
}
