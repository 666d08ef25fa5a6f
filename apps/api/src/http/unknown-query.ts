import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import type { OpenApiDocument } from '../openapi/openapi-document';
import { toTemplate } from '../openapi/route-facts';

/** `get /accounts/{id}` → the query parameters the route's OpenAPI operation lists. */
type ParametersByRoute = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Built once per process, from the first app's document: building one takes about a second, every
 * app of a process has the same controllers (the tests start hundreds), and the routes cannot
 * change while it runs.
 */
let parametersByRoute: ParametersByRoute | null = null;

/**
 * A query parameter the route does not take is refused, naming it (decisions §2): `?asof=` on a
 * read by id would otherwise answer the present to an auditor who meant `as_of`. What a route
 * takes is what the OpenAPI document lists for it (its @Query DTO, @ApiQuery, @AsOf): one source,
 * never a list per route, so a documented parameter is always accepted and an undocumented one
 * never. Lists refuse the same names through their DTOs' whitelist, with the same answer.
 * Run by the API's interceptor (request.interceptor.ts).
 */
export function refuseUnknownQuery(context: ExecutionContext, document: () => OpenApiDocument): void {
  const req = context.switchToHttp().getRequest<Request>();
  const names = Object.keys(req.query ?? {});
  if (!names.length) return;
  const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
  const path = toTemplate(String((req.route as { path?: unknown } | undefined)?.path ?? req.path));
  // A route the document does not describe takes no parameter: refusing is the safe side.
  const taken = (parametersByRoute ??= parametersOf(document())).get(`${method} ${path}`);
  const unknown = names.find((name) => !taken?.has(name));
  if (unknown !== undefined) {
    const message = `${unknown} is not an accepted field`;
    throw new DomainException(
      domainError('validation', 'validation_error', message, { errors: [{ field: unknown, message }] }),
    );
  }
}

function parametersOf(document: OpenApiDocument): ParametersByRoute {
  const byRoute = new Map<string, ReadonlySet<string>>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      byRoute.set(
        `${method} ${path}`,
        new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => String(p.name))),
      );
    }
  }
  return byRoute;
}
