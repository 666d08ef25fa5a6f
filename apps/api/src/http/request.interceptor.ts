import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { defer, type Observable } from 'rxjs';
import type { OpenApiDocument } from '../openapi/openapi-document';
import type { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { UnexpectedBody } from './unexpected-body';
import { refuseUnknownQuery } from './unknown-query';

/**
 * The API's one global interceptor, after the guards (auth, rate limit) and before the pipes:
 * `Idempotency-Key` first (decisions §13: a key sent again with another request is refused as
 * such, whatever else is wrong with that request), then the refusal of a body sent to a route that
 * takes none and of a query parameter the route does not list (decisions §2).
 *
 * One interceptor rather than three: Nest wraps each interceptor of a route's chain in an rxjs
 * `defer` and an `AsyncResource.bind` per request (a deprecation wrapper per call on Node 20),
 * about a tenth of a payout's CPU for steps that, but for idempotency, only refuse (issue 28).
 */
export class RequestInterceptor implements NestInterceptor {
  private readonly unexpectedBody = new UnexpectedBody();

  constructor(
    private readonly idempotency: IdempotencyInterceptor,
    private readonly document: () => OpenApiDocument,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // In `defer`, so a refusal is an error of what the idempotency step runs (it then releases the key), as when these were interceptors of their own.
    const checked: CallHandler = {
      handle: () =>
        defer(() => {
          this.unexpectedBody.refuse(context);
          refuseUnknownQuery(context, this.document);
          return next.handle();
        }),
    };
    return this.idempotency.intercept(context, checked);
  }
}
