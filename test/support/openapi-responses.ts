import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, ResponseObject } from '../../apps/api/src/openapi/openapi-document';

/** What a test saw: enough of an HTTP response to check it against the document. */
export interface SeenResponse {
  readonly method: string;
  /** The request's path, with or without its query. */
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (supertest's `body`), when the response is JSON. */
  readonly body: unknown;
}

/**
 * Responses the document describes by status and media type only: their bodies are not JSON, so
 * there is no schema to check them against (HTML pages, static assets, text formats, a stream).
 * `METHOD /template` → why.
 */
export const BODY_NOT_CHECKED: Readonly<Record<string, string>> = {
  'GET /3ds/{id}': 'the 3-D Secure page: HTML for the customer’s browser',
  'POST /3ds/{id}/approve': 'the 3-D Secure page’s form: a 303 to return_url, or the page again (HTML)',
  'POST /3ds/{id}/fail': 'the 3-D Secure page’s form: a 303 to return_url, or the page again (HTML)',
  'GET /docs': 'the docs page (HTML)',
  'GET /docs/{asset}': 'the docs page’s scripts, style sheet and icon',
  'GET /dashboard': 'the dashboard page (HTML)',
  'GET /dashboard/assets/{file}': 'the dashboard’s scripts, style sheets and images',
  'GET /metrics': 'Prometheus text exposition format',
  'GET /events/stream': 'Server-Sent Events',
  'GET /sandbox/card-authorization-relay': 'Server-Sent Events',
  'GET /accounts/{id}/statements/{month}': 'a statement as CSV or PDF (its JSON answer is checked)',
};

/**
 * Answers the document cannot hold: it describes operations, and these come before any operation
 * is chosen (the router's own answers). Checked here by rule instead.
 */
const ROUTER_ANSWERS =
  'an unknown path answers 404 and a known path with another method 405 with Allow, in the error envelope; OPTIONS answers 204 with Allow';

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  /** Literal segments first, so `/events/stream` wins over `/events/{id}`. */
  readonly literals: number;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks HTTP responses against an OpenAPI 3.1 document: the route template, method and status
 * must be documented, the body must match the schema of its media type (Ajv, JSON Schema
 * 2020-12, over the document's own schemas), and the headers it requires must be there. Returns
 * what is wrong, naming the route, the status and the schema error, or null.
 */
export class OpenApiResponses {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();
  /** `METHOD /template status` checked so far (coverage, for whoever wants it). */
  readonly seen = new Set<string>();

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // OpenAPI's own keywords: annotations to a JSON Schema validator.
    this.ajv.addVocabulary([
      'example',
      'discriminator',
      'xml',
      'externalDocs',
      'openapi',
      'info',
      'paths',
      'components',
      'tags',
      'servers',
      'security',
      'webhooks',
      'jsonSchemaDialect',
    ]);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(doc as object, 'openapi.json');
    this.routes = Object.keys(doc.paths)
      .map((template) => ({
        template,
        // Express routes case-insensitively and takes a trailing slash.
        pattern: new RegExp(
          `^${template
            .split('/')
            .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
            .join('/')}/?$`,
          'i',
        ),
        literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  /** The documented template a request path falls under, or null. */
  templateOf(path: string): string | null {
    return this.routes.find((r) => r.pattern.test(path))?.template ?? null;
  }

  problemWith(res: SeenResponse): string | null {
    const method = res.method.toUpperCase();
    const path = res.url.split('?', 1)[0].replace(/^https?:\/\/[^/]+/, '');
    const template = this.templateOf(path);
    const contentType = header(res.headers, 'content-type')?.split(';', 1)[0].trim().toLowerCase() ?? null;
    if (!header(res.headers, 'x-request-id')) return `${method} ${path} → ${res.status}: no x-request-id header`;
    if (method === 'HEAD' || method === 'OPTIONS')
      return method === 'OPTIONS' && res.status === 204 && !header(res.headers, 'allow')
        ? `OPTIONS ${path} → 204 without Allow (${ROUTER_ANSWERS})`
        : null;
    const operation = template ? this.doc.paths[template][method.toLowerCase()] : undefined;
    if (!template || !operation) return this.routerAnswer(method, path, template, res, contentType);
    const route = `${method} ${template}`;
    this.seen.add(`${route} ${res.status}`);
    const documented = operation.responses[String(res.status)];
    if (!documented)
      return `${route} → ${res.status}: the document has no ${res.status} for this operation (it has ${Object.keys(operation.responses).join(', ')}); body ${preview(res.body)}`;
    const { answer, at } = this.resolve(documented, [
      'paths',
      template,
      method.toLowerCase(),
      'responses',
      String(res.status),
    ]);
    for (const [name, h] of Object.entries(answer.headers ?? {})) {
      const spec = this.resolveHeader(h as Record<string, unknown>);
      const value = header(res.headers, name);
      if (spec.required && value === undefined)
        return `${route} → ${res.status}: missing header ${name} (${spec.description ?? 'required'})`;
      if (value !== undefined && spec.schema) {
        const problem = this.validate(
          `header:${JSON.stringify(spec.schema)}`,
          () => this.ajv.compile(spec.schema as object),
          value,
        );
        if (problem) return `${route} → ${res.status}: header ${name}: ${value} ${problem}`;
      }
    }
    const content = answer.content ?? {};
    const types = Object.keys(content);
    if (!types.length) return null;
    if (!contentType)
      return res.status >= 300 && res.status < 400
        ? null
        : `${route} → ${res.status}: no Content-Type; the document says ${types.join(' or ')}`;
    if (!types.includes(contentType))
      return `${route} → ${res.status}: Content-Type ${contentType}; the document says ${types.join(' or ')}`;
    if (contentType !== 'application/json')
      return route in BODY_NOT_CHECKED
        ? null
        : `${route} → ${res.status}: a ${contentType} body is not checked, and the route is not in BODY_NOT_CHECKED`;
    const ref = `openapi.json#/${pointer(...at, 'content', 'application/json', 'schema')}`;
    const problem = this.validate(ref, () => this.ajv.compile({ $ref: ref }), res.body);
    return problem
      ? `${route} → ${res.status}: the body does not match the document: ${problem}; body ${preview(res.body)}`
      : null;
  }

  /** The router's answers (404 unknown path, 405 another method), which no operation documents. */
  private routerAnswer(
    method: string,
    path: string,
    template: string | null,
    res: SeenResponse,
    contentType: string | null,
  ): string | null {
    const expected = template ? 405 : 404;
    const what = template
      ? `${method} ${template} is not an operation of the document`
      : `${path} is no path of the document`;
    if (res.status !== expected && !(template && res.status === 404))
      return `${method} ${path} → ${res.status}: ${what}, so the answer must be ${expected} (${ROUTER_ANSWERS})`;
    if (res.status === 405 && !header(res.headers, 'allow')) return `${method} ${path} → 405 without Allow`;
    if (contentType !== 'application/json')
      return `${method} ${path} → ${res.status}: not the error envelope (Content-Type ${contentType})`;
    const ref = 'openapi.json#/components/schemas/Error';
    const problem = this.validate(ref, () => this.ajv.compile({ $ref: ref }), res.body);
    return problem ? `${method} ${path} → ${res.status}: not the error envelope: ${problem}` : null;
  }

  private resolve(answer: ResponseObject, at: string[]): { answer: ResponseObject; at: string[] } {
    if (!answer.$ref) return { answer, at };
    const name = answer.$ref.replace('#/components/responses/', '');
    const found = this.doc.components.responses?.[name] as ResponseObject | undefined;
    if (!found) throw new Error(`OpenAPI: unresolved ${answer.$ref}`);
    return { answer: found, at: ['components', 'responses', name] };
  }

  private resolveHeader(h: Record<string, unknown>): { required?: boolean; description?: string; schema?: unknown } {
    if (typeof h.$ref !== 'string') return h;
    const found = this.doc.components.headers?.[h.$ref.replace('#/components/headers/', '')];
    if (!found) throw new Error(`OpenAPI: unresolved ${h.$ref}`);
    return found as Record<string, unknown>;
  }

  private validate(key: string, compile: () => ValidateFunction, value: unknown): string | null {
    let validate = this.validators.get(key);
    if (!validate) this.validators.set(key, (validate = compile()));
    return validate(value) ? null : describe(validate.errors ?? []);
  }
}

function header(headers: SeenResponse['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Ajv's errors, the most telling first: where in the body, what the schema wanted. */
function describe(errors: ErrorObject[]): string {
  const lines = errors.slice(0, 6).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
        : e.keyword === 'enum' || e.keyword === 'const'
          ? ` (${JSON.stringify(e.params)})`
          : '';
    return `${e.instancePath || '(body)'} ${e.message}${extra} [${e.schemaPath}]`;
  });
  return lines.join('; ') + (errors.length > 6 ? `; and ${errors.length - 6} more` : '');
}

function preview(body: unknown): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
