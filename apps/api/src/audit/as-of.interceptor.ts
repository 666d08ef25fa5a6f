import {
  applyDecorators,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Observable } from 'rxjs';
import { ApiPropertyOptional, ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { atPointInTime, type PointInTime } from '@app/platform/event-store/point-in-time';
import { strictValidationPipe } from '../http/validation.pipe';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** `as_of` (decisions §10): an ISO 8601 date-time, a ms integer, or `position:N`; null when it is none of them. */
function pointInTimeOf(value: unknown): PointInTime | null {
  if (typeof value !== 'string') return null;
  const position = /^position:(\d{1,16})$/.exec(value);
  if (position) return { position: Number(position[1]) };
  if (/^\d{1,15}$/.test(value)) return { time: Number(value) };
  const ms = DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2026-02-30 over to March: the date part must read back as itself.
  const calendar = new Date(Date.parse(`${value.slice(0, 10)}T00:00:00Z`)).toISOString().slice(0, 10);
  return calendar === value.slice(0, 10) ? { time: ms } : null;
}

const isPointInTime = (value: unknown): value is PointInTime =>
  typeof value === 'object' &&
  value !== null &&
  (typeof (value as { time?: unknown }).time === 'number' ||
    typeof (value as { position?: unknown }).position === 'number');

/**
 * An `as_of` field of a query DTO: the string is read into its point in time as the query is
 * transformed, and the one validation pipe refuses (400 validation_error) what could not be read.
 */
export const AsOfField = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => pointInTimeOf(value) ?? value),
    ValidateBy({
      name: 'isAsOf',
      validator: {
        validate: isPointInTime,
        defaultMessage: () => 'as_of must be an ISO 8601 date-time, a ms integer or position:N',
      },
    }),
  );

/** The `as_of` of a GET by id, on its own: its route's query DTO never sees it (AsOfInterceptor). */
class AsOfQuery {
  // Documented on each route by AsOf()'s ApiQuery (below); this class is never a route's DTO.
  @ApiPropertyOptional({ type: 'string', description: 'The point of a GET by id: a date-time, Unix ms, or position:N' })
  @AsOfField()
  as_of?: PointInTime;
}

const validation = strictValidationPipe();

/**
 * Runs a GET by id as of `as_of`: the parameter is taken out of the query (the route's own query
 * DTO never sees it) and the handler runs inside `atPointInTime`, so the same query handler folds
 * the stream up to the point and the same presenter shows it. Before the resource existed, its
 * stream folds to nothing: the route's ordinary 404.
 */
@Injectable()
export class AsOfInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const { as_of: asOf, ...rest } = req.query as Record<string, unknown>;
    if (asOf === undefined) return next.handle();
    // Interceptors run before pipes: the one pipe is asked here, with the parameter's own DTO.
    const query = (await validation.transform({ as_of: asOf }, { type: 'query', metatype: AsOfQuery })) as AsOfQuery;
    const point = query.as_of!;
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
