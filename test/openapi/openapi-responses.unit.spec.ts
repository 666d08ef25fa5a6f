import type { OpenApiDocument } from '../../apps/api/src/openapi/openapi-document';
import { OpenApiResponses, type SeenResponse } from '../support/openapi-responses';

/** A small document in the shape the API's has: a component, a route template, a shared error answer. */
function documentWith(transferSchema: Record<string, unknown>): OpenApiDocument {
  const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
  const requestId = { 'x-request-id': { $ref: '#/components/headers/XRequestId' } };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/transfers/{id}': {
        get: {
          responses: {
            '200': { description: 'ok', headers: requestId, content: json('Transfer') },
            '404': { description: 'missing', headers: requestId, content: json('Error') },
            '429': { $ref: '#/components/responses/RateLimited' },
          },
        },
      },
      '/docs': {
        get: {
          responses: { '200': { description: 'page', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Transfer: transferSchema,
        Error: {
          type: 'object',
          required: ['status', 'code', 'message', 'errors'],
          properties: {
            status: { const: 'error' },
            code: { type: 'string' },
            message: { type: 'string' },
            errors: { type: 'array' },
          },
        },
      },
      headers: {
        XRequestId: { required: true, schema: { type: 'string' } },
        RetryAfter: { required: true, schema: { type: 'string', pattern: '^\\d+$' } },
      },
      responses: {
        RateLimited: {
          description: 'slow down',
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
          content: json('Error'),
        },
      },
    },
  };
}

const TRANSFER = {
  type: 'object',
  required: ['id', 'amount', 'status'],
  additionalProperties: false,
  properties: { id: { type: 'string' }, amount: { type: 'integer' }, status: { enum: ['pending', 'successful'] } },
};

const seen = (over: Partial<SeenResponse>): SeenResponse => ({
  method: 'GET',
  url: '/transfers/trf_1?entity_id=ent_1',
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_1' },
  body: { id: 'trf_1', amount: 500, status: 'pending' },
  ...over,
});

/** The checker every e2e response goes through (test/support/openapi-check.ts) fails what the document does not say. */
describe('OpenApiResponses: responses checked against the document', () => {
  const check = new OpenApiResponses(documentWith(TRANSFER));

  it('passes a response that matches, by template, method and status', () => {
    expect(check.problemWith(seen({}))).toBeNull();
    expect(
      check.problemWith(
        seen({
          status: 404,
          body: { status: 'error', code: 'transfer_not_found', message: 'No transfer', errors: [] },
        }),
      ),
    ).toBeNull();
  });

  it('fails a body that does not match the schema, naming the route, the status and the schema error', () => {
    const problem = check.problemWith(seen({ body: { id: 'trf_1', amount: '500', status: 'pending' } }));
    expect(problem).toContain('GET /transfers/{id} → 200');
    expect(problem).toContain('/amount must be integer');
  });

  it('fails a field the document does not have, and a missing one', () => {
    expect(check.problemWith(seen({ body: { id: 'trf_1', amount: 1, status: 'pending', extra: true } }))).toContain(
      'must NOT have additional properties (extra)',
    );
    expect(check.problemWith(seen({ body: { id: 'trf_1', status: 'pending' } }))).toContain(
      "must have required property 'amount'",
    );
  });

  it('fails a status the operation does not document', () => {
    expect(
      check.problemWith(seen({ status: 409, body: { status: 'error', code: 'conflict', message: 'm', errors: [] } })),
    ).toContain('the document has no 409 for this operation');
  });

  it('fails a missing required header, also on a shared (component) answer', () => {
    expect(check.problemWith(seen({ headers: { 'content-type': 'application/json' } }))).toContain('no x-request-id');
    const limited = seen({ status: 429, body: { status: 'error', code: 'rate_limited', message: 'm', errors: [] } });
    expect(check.problemWith(limited)).toContain('missing header Retry-After');
    expect(check.problemWith({ ...limited, headers: { ...limited.headers, 'retry-after': '1' } })).toBeNull();
  });

  it('fails a media type the document does not say, and a path or method it does not have unless the router answered it', () => {
    expect(
      check.problemWith(seen({ headers: { 'content-type': 'text/html', 'x-request-id': 'r' }, body: {} })),
    ).toContain('Content-Type text/html');
    expect(check.problemWith(seen({ url: '/nowhere', status: 200 }))).toContain('no path of the document');
    expect(
      check.problemWith(
        seen({ url: '/nowhere', status: 404, body: { status: 'error', code: 'not_found', message: 'm', errors: [] } }),
      ),
    ).toBeNull();
    expect(
      check.problemWith(
        seen({
          method: 'POST',
          status: 405,
          body: { status: 'error', code: 'method_not_allowed', message: 'm', errors: [] },
        }),
      ),
    ).toContain('405 without Allow');
  });

  it('fails a response that matched before once the schema is (deliberately) wrong', () => {
    const wrong = new OpenApiResponses(
      documentWith({ ...TRANSFER, properties: { ...TRANSFER.properties, amount: { type: 'string' } } }),
    );
    expect(wrong.problemWith(seen({}))).toContain('/amount must be string');
  });

  it('checks only status and media type for bodies it lists as not JSON', () => {
    expect(
      check.problemWith(
        seen({ url: '/docs', headers: { 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'r' }, body: {} }),
      ),
    ).toBeNull();
  });
});
