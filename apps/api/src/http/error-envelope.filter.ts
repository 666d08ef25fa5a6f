import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { DomainError, DomainErrorKind } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { assignRequestLog, logger } from '@app/platform/logging/logger';
import { ReadModelLaggingError } from '@app/platform/read-store/consistency/read-model-lagging.error';
import { isStoreUnavailable } from '@app/platform/store-unavailable';
import { OverloadedError } from './overload/overloaded.error';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rule: 422,
  rate_limited: 429,
};

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
};

/**
 * A store that cannot answer (MongoDB unreachable past its client timeouts, a full disk, an I/O
 * error: `isStoreUnavailable`) is an outage, not a bug: 503 `service_unavailable` with
 * Retry-After, so clients retry later under the same Idempotency-Key (decisions/infrastructure.md,
 * "Faults"). Longer than `overloaded`'s second: a store comes back in seconds (a restart, an
 * election), not at the next request.
 */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Every error leaves the API in the decided envelope (decisions §2), whatever threw it. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    const { status, body } = toEnvelope(exception);
    // The completion line of a refused request says why: its error code (issue 32 item 7).
    assignRequestLog({ code: body.code });
    // The request's logger binds request_id, actor, organization and trace (http/logging.ts).
    if (status >= 500) logger.error({ err: exception, path: req.path }, 'request failed');
    if (res.headersSent) return;
    if (exception instanceof ReadModelLaggingError || exception instanceof OverloadedError)
      res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    else if (status === HttpStatus.SERVICE_UNAVAILABLE && body.code === 'service_unavailable')
      res.setHeader('Retry-After', String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    res.status(status).json(body);
  }
}

export function toEnvelope(exception: unknown): { status: number; body: Record<string, unknown> } {
  if (exception instanceof DomainException) return fromDomainError(exception.error);
  if (exception instanceof ReadModelLaggingError || exception instanceof OverloadedError)
    return { status: HttpStatus.SERVICE_UNAVAILABLE, body: envelope(exception.code, exception.message) };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : String((response as { message?: unknown }).message ?? exception.message);
    return { status, body: envelope(CODE_BY_STATUS[status] ?? 'error', message) };
  }
  // Errors raised by Express middleware carry their status.
  const err = exception as { status?: number; statusCode?: number; message?: string };
  const status = err?.status ?? err?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: envelope(CODE_BY_STATUS[status] ?? 'bad_request', err.message ?? 'Bad request') };
  }
  if (isStoreUnavailable(exception)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: envelope(
        'service_unavailable',
        'A store the API depends on is not answering or out of space; retry after Retry-After',
      ),
    };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: envelope('internal_error', 'Something went wrong on our side'),
  };
}

export function fromDomainError(error: DomainError): { status: number; body: Record<string, unknown> } {
  return {
    status: STATUS_BY_KIND[error.kind],
    body: { ...envelope(error.code, error.message, error.errors ?? []), ...(error.details ?? {}) },
  };
}

function envelope(code: string, message: string, errors: readonly { field: string; message: string }[] = []) {
  return { status: 'error', code, message, errors };
}
