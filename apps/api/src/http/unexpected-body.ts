import type { ExecutionContext } from '@nestjs/common';
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
 * Run by the API's interceptor (request.interceptor.ts).
 */
export function refuseUnexpectedBody(context: ExecutionContext): void {
  const body: unknown = context.switchToHttp().getRequest<Request>().body;
  const field = body && typeof body === 'object' ? Object.keys(body)[0] : undefined;
  if (field !== undefined && !takesBody(context)) {
    const message = `${field} is not an accepted field`;
    throw new DomainException(domainError('validation', 'validation_error', message, { errors: [{ field, message }] }));
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
