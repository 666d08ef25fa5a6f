import type { ExecutionContext, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

/** Whether a controller's handler has a @Body() parameter (also read by the OpenAPI document, route-facts.ts). */
export function takesBody(controller: Type | object, handlerName: string): boolean {
  const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {};
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

/**
 * Unknown body fields are refused (decisions §2) on routes that take no body too: there no DTO
 * whitelists the fields, so a route without a @Body() parameter refuses any field sent.
 * Held by the API's interceptor (request.interceptor.ts), one per app, with what it read of each
 * handler's metadata: the routes cannot change while the app runs.
 */
export class UnexpectedBody {
  private readonly takesBodyByHandler = new Map<object, boolean>();

  refuse(context: ExecutionContext): void {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    const field = body && typeof body === 'object' ? Object.keys(body)[0] : undefined;
    if (field !== undefined && !this.takesBody(context)) {
      const message = `${field} is not an accepted field`;
      throw new DomainException(
        domainError('validation', 'validation_error', message, { errors: [{ field, message }] }),
      );
    }
  }

  private takesBody(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let takes = this.takesBodyByHandler.get(handler);
    if (takes === undefined)
      this.takesBodyByHandler.set(handler, (takes = takesBody(context.getClass(), handler.name)));
    return takes;
  }
}
