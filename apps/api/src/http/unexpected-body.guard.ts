import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

/** Whether a handler has a @Body() parameter: read from its metadata once, the routes cannot change while the process runs. */
const takesBodyByHandler = new WeakMap<object, boolean>();

/**
 * Unknown body fields are refused (decisions §2) on routes that take no body too: there no DTO
 * whitelists the fields, so a route without a @Body() parameter refuses any field sent.
 *
 * A global guard (after the auth guard and the rate limit, which are the app's own global guards
 * and come first) rather than an interceptor: each interceptor in Nest's chain wraps the handler
 * in an rxjs `defer` and an `AsyncResource.bind` per request (issue 28), for a check that only
 * ever refuses before the handler runs.
 */
@Injectable()
export class UnexpectedBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    const field = body && typeof body === 'object' ? Object.keys(body)[0] : undefined;
    if (field !== undefined && !takesBody(context)) {
      const message = `${field} is not an accepted field`;
      throw new DomainException(domainError('validation', 'validation_error', message, { errors: [{ field, message }] }));
    }
    return true;
  }
}

function takesBody(context: ExecutionContext): boolean {
  const handler = context.getHandler();
  let takes = takesBodyByHandler.get(handler);
  if (takes === undefined) {
    const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {};
    takes = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
    takesBodyByHandler.set(handler, takes);
  }
  return takes;
}
