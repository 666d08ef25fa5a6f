import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ref, type Schema } from '@app/read-models/schema-dsl';

/** A success answer of a route: its status, a component name (or a schema) and what it means. */
export interface Answer {
  readonly status: number;
  readonly schema?: string | Schema;
  readonly description: string;
  /** Other media types than JSON (the 3-D Secure page's HTML, the docs page's assets). */
  readonly mediaType?: string | readonly string[];
  /** Response headers beyond the ones every answer carries. */
  readonly headers?: Record<
    string,
    { readonly description: string; readonly required?: boolean; readonly schema?: Schema }
  >;
}

/** A refusal a route itself decides (the edge's refusals are added to every route by the document builder). */
export type Refusal = string | { readonly description: string; readonly schema: string };

export interface RouteDocs {
  /** Unique, camelCase: the name generated clients use. */
  readonly id: string;
  readonly summary: string;
  readonly description?: string;
  readonly ok: Answer | readonly Answer[];
  /** The route's own refusals by status, each naming its `code`s. */
  readonly errors?: Readonly<Partial<Record<400 | 403 | 404 | 409 | 413 | 422 | 429 | 503, Refusal>>>;
  /** Reads a read model (a list): 503 `read_model_lagging` while it trails the log past the bound. */
  readonly readModel?: true;
}

/** The extension the document builder reads to add the read-model 503; removed from the served document. */
export const READ_MODEL_EXTENSION = 'x-reads-read-model';

const asSchema = (schema: string | Schema): Schema => (typeof schema === 'string' ? ref(schema) : schema);

/**
 * Documents one route: its operation, its success answers and the refusals it decides itself.
 * Auth, `Idempotency-Key`, the rate limit and the HTTP edge's refusals (400 malformed JSON, 401,
 * 413, 415, 429, 503 overloaded) come from the route's own metadata in openapi-document.ts, so
 * they cannot be forgotten on a route.
 */
export function ApiRoute(docs: RouteDocs): MethodDecorator {
  const answers = Array.isArray(docs.ok) ? (docs.ok as readonly Answer[]) : [docs.ok as Answer];
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    ApiOperation({ operationId: docs.id, summary: docs.summary, description: docs.description }),
  ];
  for (const a of answers) {
    const headers = a.headers
      ? Object.fromEntries(
          Object.entries(a.headers).map(([name, h]) => [
            name,
            { description: h.description, required: h.required, schema: h.schema ?? { type: 'string' } },
          ]),
        )
      : undefined;
    if (a.mediaType) {
      const types = typeof a.mediaType === 'string' ? [a.mediaType] : a.mediaType;
      const schema = (a.schema ? asSchema(a.schema) : { type: 'string' }) as never;
      decorators.push(
        ApiResponse({
          status: a.status,
          description: a.description,
          headers,
          content: Object.fromEntries(types.map((type) => [type, { schema }])),
        }),
      );
    } else if (a.schema) {
      decorators.push(
        ApiResponse({ status: a.status, description: a.description, headers, schema: asSchema(a.schema) as never }),
      );
    } else {
      decorators.push(ApiResponse({ status: a.status, description: a.description, headers }));
    }
  }
  for (const [status, refusal] of Object.entries(docs.errors ?? {})) {
    const { description, schema } = typeof refusal === 'string' ? { description: refusal, schema: 'Error' } : refusal;
    decorators.push(ApiResponse({ status: Number(status), description, schema: ref(schema) as never }));
  }
  if (docs.readModel) decorators.push(ApiExtension(READ_MODEL_EXTENSION, true));
  return applyDecorators(...decorators);
}
