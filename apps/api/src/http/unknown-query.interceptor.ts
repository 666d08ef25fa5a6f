import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import type { OpenApiDocument } from '../openapi/openapi-document';
import { toTemplate } from '../openapi/route-facts';

/**
 * A query parameter the route does not take is refused, naming it (decisions §2): `?asof=` on a
 * read by id would otherwise answer the present to an auditor who meant `as_of`. What a route
 * takes is what the OpenAPI document lists for it (its @Query DTO, @ApiQuery, @AsOf): one source,
 * never a list per route, so a documented parameter is always accepted and an undocumented one
 * never. Lists refuse the same names through their DTOs' whitelist, with the same answer.
 */
@Injectable()
export class UnknownQueryInterceptor implements NestInterceptor {
  /** `get /accounts/{id}` → the query parameters the route documents. */
  private readonly taken = new Map<string, ReadonlySet<string>>();

  constructor(private readonly document: () => OpenApiDocument) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const names = Object.keys(req.query ?? {});
    if (names.length) {
      const taken = this.takenBy(req.method === 'HEAD' ? 'get' : req.method.toLowerCase(), String((req.route as { path?: unknown } | undefined)?.path ?? req.path));
      const unknown = names.find((name) => !taken.has(name));
      if (unknown !== undefined) {
        const message = `${unknown} is not an accepted field`;
        throw new DomainException(domainError('validation', 'validation_error', message, { errors: [{ field: unknown, message }] }));
      }
    }
    return next.handle();
  }

  private takenBy(method: string, routePath: string): ReadonlySet<string> {
    const path = toTemplate(routePath);
    const key = `${method} ${path}`;
    let taken = this.taken.get(key);
    if (!taken) {
      // A route the document does not describe takes no parameter: refusing is the safe side.
      const parameters = this.document().paths[path]?.[method]?.parameters ?? [];
      taken = new Set(parameters.filter((p) => p.in === 'query').map((p) => String(p.name)));
      this.taken.set(key, taken);
    }
    return taken;
  }
}
