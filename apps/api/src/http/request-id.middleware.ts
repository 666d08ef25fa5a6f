import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ulid } from '@app/platform/ids/ulid';
import { assignRequestLog } from '@app/platform/logging/logger';
import { parseTraceparent, traceIdOf } from '@app/platform/logging/trace-context';

/** Every response carries x-request-id: the caller's when it is sane, otherwise a new one (the same however often asked). */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : `req_${ulid()}`;
  req.headers['x-request-id'] = id;
  if (!res.headersSent) res.setHeader('x-request-id', id);
  return id;
}

/**
 * The request id (made by the request logger, apps/api/src/http/logging.ts, or here) and the
 * request's trace: the caller's W3C `traceparent` when valid, otherwise the trace derived from the
 * request id, which is also the trace of everything that follows from it in other processes (the
 * bus, webhooks, process managers: they derive it from the events' `correlation_id`,
 * libs/platform/src/logging/trace-context.ts). A caller's own trace is on this request's lines as
 * `trace_id`, and the trace the asynchronous work continues under as `async_trace_id`.
 */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = requestIdOf(req, res);
  const derived = traceIdOf(id);
  const inbound = parseTraceparent(req.headers.traceparent);
  assignRequestLog(
    inbound && inbound.traceId !== derived
      ? { trace_id: inbound.traceId, async_trace_id: derived }
      : { trace_id: derived },
  );
  next();
}
