import {
  Global,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type MiddlewareConsumer,
  type NestModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { logger, requestLineLogger, rootLogger, runWithRequestLog } from '@app/platform/logging/logger';
import { requestIdOf } from './request-id.middleware';

/** Probes and scrapes answer every few seconds per replica: their lines are debug, the rest info (5xx: error). */
const QUIET_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics']);
const pathOf = (url: string | undefined) => (url ?? '').split('?')[0];

/**
 * Request logging: the request id (the x-request-id, made here) and the fields later steps add
 * (the request-id middleware's `trace_id`, the auth guard's `actor`, `organization_id` and `mode`,
 * the error filter's `code`: `assignRequestLog`) are the request's log fields, kept in
 * AsyncLocalStorage so that whatever logs during the request (handlers, commands, adapters:
 * `logger` of libs/platform) writes them, and written with the one completion line. Neither
 * headers nor bodies are logged: method, path, status and time only.
 *
 * A middleware of our own rather than pino-http (nestjs-pino): that made a pino child per request
 * and another for the completion line, each serializing its bindings, whether or not anything was
 * logged (issue 28: a tenth of a payout's CPU with the level at warn). Here a request that logs
 * nothing costs an object and a listener; the line is built only when its level is enabled.
 */
export function logRequest(req: Request, res: Response, next: NextFunction): void {
  const started = performance.now();
  const fields = runWithRequestLog({ request_id: requestIdOf(req, res) }, next);
  res.once('close', () => {
    const status = res.statusCode;
    const path = pathOf(req.originalUrl);
    const level = status >= 500 ? 'error' : QUIET_PATHS.has(path) ? 'debug' : 'info';
    if (!rootLogger.isLevelEnabled(level)) return;
    const line = {
      ...fields,
      req: { method: req.method, path },
      res: { status },
      ms: Math.round(performance.now() - started),
    };
    // A response that never ended (the client went away first) says so.
    requestLineLogger[level](
      res.writableEnded ? line : { ...line, aborted: true },
      status >= 500 ? 'request failed' : 'request',
    );
  });
}

/**
 * Shutdown is announced (issue 32 item 7): the signal that asked for it (SIGTERM from the
 * orchestrator, SIGINT), then the line once every module has closed, so an operator reading the
 * log knows a stop was asked for and when it finished, not a crash.
 */
@Injectable()
export class ShutdownAnnouncer implements BeforeApplicationShutdown, OnApplicationShutdown {
  beforeApplicationShutdown(signal?: string): void {
    logger.info({ signal: signal ?? null }, 'shutting down');
  }

  onApplicationShutdown(signal?: string): void {
    logger.info({ signal: signal ?? null }, 'shut down');
  }
}

/** Global, so its middleware runs before every other module's (Nest orders middleware global modules first). */
@Global()
@Module({ providers: [ShutdownAnnouncer] })
class RequestLoggingModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(logRequest).forRoutes('*path');
  }
}

export function requestLogging() {
  return RequestLoggingModule;
}
