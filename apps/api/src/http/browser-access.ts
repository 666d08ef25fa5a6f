import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import compression from 'compression';
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';

/** Headers a browser app may send and read across origins (the API's own conventions). */
const REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Payments-Version',
  'X-Request-Id',
  'If-None-Match',
  'Last-Event-ID',
];
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Payments-Version',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'ETag',
  'Location',
];

/** Whether `origin` is the API's own (the dashboard's fetches carry Origin too), by the Host it was asked on. */
const sameOrigin = (req: Request, origin: string): boolean =>
  URL.canParse(origin) && new URL(origin).host === req.headers.host;

/**
 * CORS for client apps on `CORS_ALLOWED_ORIGINS` (issue 32 item 6), with the `cors` package: their
 * preflights are answered (204) and their answers readable. None by default. Only requests that
 * carry an Origin go through it, so an OPTIONS without one is still the API's own (204 with Allow).
 * Nest middleware after the request id, so a preflight's answer carries x-request-id too.
 */
@Injectable()
export class CorsForClientApps implements NestMiddleware {
  private readonly origins: ReadonlySet<string>;
  private readonly handler: RequestHandler;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.origins = new Set(config.corsAllowedOrigins);
    this.handler = cors({
      origin: (origin, done) => done(null, origin !== undefined && this.origins.has(origin)),
      allowedHeaders: REQUEST_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      preflightContinue: true,
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    // The preflight then goes on to the API's own OPTIONS answer (204 with Allow).
    if (this.origins.size && req.headers.origin) this.handler(req, res, next);
    else next();
  }
}

/**
 * A secret key (sk_…) sent by a browser page of an origin that is not allowed is refused, 403
 * `secret_key_in_browser`: a secret key in a page is a leaked key; pages use entity tokens. The
 * API's own origin (the dashboard) is allowed. Nest middleware, so the refusal is the envelope.
 */
@Injectable()
export class SecretKeyOrigin implements NestMiddleware {
  private readonly origins: ReadonlySet<string>;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.origins = new Set(config.corsAllowedOrigins);
  }

  use(req: Request, _res: Response, next: NextFunction): void {
    const origin = req.headers.origin;
    if (
      origin &&
      !this.origins.has(origin) &&
      !sameOrigin(req, origin) &&
      /^Bearer +sk_/i.test(req.headers.authorization ?? '')
    ) {
      throw new DomainException(
        domainError(
          'forbidden',
          'secret_key_in_browser',
          `A secret API key cannot be used from a browser page on ${origin.slice(0, 100)}: use an entity token from an origin in CORS_ALLOWED_ORIGINS`,
        ),
      );
    }
    next();
  }
}

/**
 * gzip/brotli of answers over 1 kB that the client accepts (the `compression` package): the
 * OpenAPI document is 600 kB as JSON. Never the event stream: compression would buffer its events.
 */
export const compressAnswers = (): RequestHandler =>
  compression({
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
  });
