import { Injectable, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { logger, rootLogger } from '@app/platform/logging/logger';
import { requestIdOf } from './request-id.middleware';

/** Probes and scrapes answer every few seconds per replica: their lines are debug, the rest info (5xx: error). */
const QUIET_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics']);
const pathOf = (url: string | undefined) => (url ?? '').split('?')[0];

/**
 * Request logging through nestjs-pino (pino-http): one child of the root logger per request, bound
 * to `request_id` (the x-request-id, made here), kept in AsyncLocalStorage so that whatever logs
 * during the request (handlers, commands, adapters: `logger` of libs/platform) writes through it;
 * the request-id middleware adds `trace_id`, the auth guard `actor`, `organization_id` and `mode`,
 * to every later line and to the completion line (`assignResponse`). Neither headers nor bodies
 * are logged: method, path, status and time only.
 */
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

export function requestLogging(): DynamicModule {
  const module = LoggerModule.forRoot({
    pinoHttp: {
      logger: rootLogger,
      genReqId: (req: IncomingMessage, res: ServerResponse) => requestIdOf(req, res),
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'request_id', responseTime: 'ms' },
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, path: pathOf(req.url) }),
        res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
      },
      customLogLevel: (req, res, err) => (err || res.statusCode >= 500 ? 'error' : QUIET_PATHS.has(pathOf(req.url)) ? 'debug' : 'info'),
      customSuccessMessage: () => 'request',
      customErrorMessage: () => 'request failed',
    },
    assignResponse: true,
    forRoutes: ['*path'],
  });
  return { ...module, providers: [...(module.providers ?? []), ShutdownAnnouncer] };
}
