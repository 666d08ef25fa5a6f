import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { OpenApiDocuments } from '../../apps/api/src/openapi/docs.controller';
import { OpenApiResponses, type SeenResponse } from './openapi-responses';

/**
 * Every response the e2e suite receives through `TestApp.http` is checked against the OpenAPI
 * document the app serves (docs/decisions/infrastructure.md, "OpenAPI"): a mismatch fails the
 * request's own assertion chain, naming the route, the status and the schema error. The document
 * is built once per Jest worker (every test app has the same controllers).
 */
let shared: OpenApiResponses | null = null;

export function openApiResponses(app: INestApplication): OpenApiResponses {
  return (shared ??= new OpenApiResponses(app.get(OpenApiDocuments).document()));
}

/** Thrown into the request's assertions (supertest reports it as the request's failure). */
export class ContractMismatch extends Error {
  override readonly name = 'ContractMismatch';
}

type Agent = ReturnType<typeof request>;
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']);

/**
 * `request(app.getHttpServer())` whose every request first asserts that its response matches the
 * document, before the test's own `.expect(…)`s (an assertion added first runs first).
 */
export function checkedHttp(app: INestApplication): Agent {
  const agent = request(app.getHttpServer());
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !METHODS.has(property) || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) => {
        const test = (value as (url: string, ...rest: unknown[]) => request.Test).call(target, url, ...rest);
        const method = property === 'del' ? 'DELETE' : property.toUpperCase();
        return test.expect((res: request.Response) => {
          const seen: SeenResponse = {
            method,
            url,
            status: res.status,
            headers: res.headers as SeenResponse['headers'],
            body: res.body,
          };
          const problem = openApiResponses(app).problemWith(seen);
          if (problem) throw new ContractMismatch(`OpenAPI contract: ${problem}`);
        });
      };
    },
  });
}
