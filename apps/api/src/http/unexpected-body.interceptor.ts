import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

/**
 * Unknown body fields are refused (decisions §2) on routes that take no body too: there no DTO
 * whitelists the fields, so a route without a @Body() parameter refuses any field sent.
 */
@Injectable()
export class UnexpectedBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    const field = body && typeof body === 'object' ? Object.keys(body)[0] : undefined;
    if (field !== undefined && !takesBody(context)) {
      const message = `${field} is not an accepted field`;
      throw new DomainException(domainError('validation', 'validation_error', message, { errors: [{ field, message }] }));
    }
    return next.handle();
  }
}

function takesBody(context: ExecutionContext): boolean {
  const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) ?? {};
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}
