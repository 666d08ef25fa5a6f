import {
  applyDecorators,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Observable } from 'rxjs';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { atPointInTime, type PointInTime } from '@app/platform/event-store/point-in-time';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const malformed = () =>
  new DomainException(
    domainError('validation', 'validation_error', 'Invalid as_of', {
      errors: [{ field: 'as_of', message: 'as_of must be an ISO 8601 date-time, a ms integer or position:N' }],
    }),
  );

/** `as_of` (decisions §10): an ISO 8601 date-time, a ms integer, or `position:N`. */
export function parseAsOf(value: unknown): PointInTime {
  if (typeof value !== 'string') throw malformed();
  const position = /^position:(\d{1,16})$/.exec(value);
  if (position) return { position: Number(position[1]) };
  if (/^\d{1,15}$/.test(value)) return { time: Number(value) };
  const ms = DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (
    Number.isNaN(ms) ||
    new Date(Date.parse(`${value.slice(0, 10)}T00:00:00Z`)).toISOString().slice(0, 10) !== value.slice(0, 10)
  )
    throw malformed();
  return { time: ms };
}

/**
 * Runs a GET by id as of `as_of`: the parameter is taken out of the query (the route's own query
 * DTO never sees it) and the handler runs inside `atPointInTime`, so the same query handler folds
 * the stream up to the point and the same presenter shows it. Before the resource existed, its
 * stream folds to nothing: the route's ordinary 404.
 */
@Injectable()
export class AsOfInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const { as_of: asOf, ...rest } = req.query as Record<string, unknown>;
    if (asOf === undefined) return next.handle();
    const point = parseAsOf(asOf);
    // Express 5 parses `req.query` on every read: shadow it with the query minus `as_of`.
    Object.defineProperty(req, 'query', { value: rest, configurable: true, writable: true });
    return new Observable((subscriber) => atPointInTime(point, () => next.handle().subscribe(subscriber)));
  }
}

/** On each GET by id of decisions §10 (and its `as_of` query parameter in the OpenAPI document). */
export const AsOf = () =>
  applyDecorators(
    UseInterceptors(AsOfInterceptor),
    ApiQuery({
      name: 'as_of',
      required: false,
      description:
        'The resource as it was at a point: an ISO 8601 date-time, a Unix ms integer, or position:N (a log position); before it existed, 404',
      schema: { type: 'string', pattern: '^(position:\\d{1,16}|\\d{1,15}|\\d{4}-\\d{2}-\\d{2}T.+)$' },
    }),
  );
