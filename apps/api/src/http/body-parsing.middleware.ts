import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpException, HttpStatus } from '@nestjs/common';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { hasBody, isKind, mediaTypeOf, unsupportedMessage, type BodyKind } from './media-types';
import { RouteTable } from './route-table';

/**
 * Strict HTTP at the edge (decisions §2), before authentication, for every request:
 * - a known path with a method none of its routes serves: 405 `method_not_allowed` with `Allow`
 *   (OPTIONS on a known path answers 204 with `Allow`);
 * - a body the route does not take (JSON unless its handler says otherwise with @Accepts):
 *   415 `unsupported_media_type`, so no body is ever silently ignored or read as another kind;
 * - otherwise the body is parsed as the kind it is (multipart is left to the route's
 *   interceptor), with parser failures turned into domain errors at the source: NestJS would
 *   otherwise rewrap them as a generic 400 and lose which failure it was.
 * A request without a body passes whatever its Content-Type; an unknown path passes untouched,
 * for Nest's 404.
 */
export function bodyParsing(limit = '1mb'): RequestHandler {
  // Which kind a body is has been decided here already, so the parsers take any Content-Type.
  const parsers: Record<BodyKind, RequestHandler | null> = {
    json: express.json({ limit, strict: true, type: () => true }),
    form: express.urlencoded({ extended: false, limit, type: () => true }),
    multipart: null,
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const found = RouteTable.of(req.app).resolve(req.method, pathOf(req.originalUrl));
    if (found.kind === 'unknown') return next();
    if (found.kind === 'other_methods') {
      res.setHeader('Allow', found.allow);
      if (req.method === 'OPTIONS') return void res.status(HttpStatus.NO_CONTENT).end();
      return next(new HttpException(`${req.method} is not allowed here; this path takes ${found.allow}`, HttpStatus.METHOD_NOT_ALLOWED));
    }
    if (!hasBody(req.headers)) return next();
    const mediaType = mediaTypeOf(req.headers['content-type']);
    const kind = mediaType === null ? undefined : found.accepts.find((k) => isKind(k, mediaType));
    if (!kind) return next(new HttpException(unsupportedMessage(mediaType, found.accepts), HttpStatus.UNSUPPORTED_MEDIA_TYPE));
    const parse = parsers[kind];
    if (!parse) return next();
    parse(req, res, (err?: unknown) => next(err ? translate(err) : undefined));
  };
}

/** The path Express routes on: the URL without its query (and without scheme and host in absolute form). */
function pathOf(url: string): string {
  const path = url.split('?', 1)[0];
  if (path.startsWith('/')) return path;
  try {
    return new URL(path).pathname;
  } catch {
    return path;
  }
}

function translate(err: unknown): unknown {
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') return new DomainException(domainError('validation', 'invalid_json', 'The request body is not valid JSON'));
  if (type === 'entity.too.large') return new DomainException(domainError('too_large', 'payload_too_large', `The request body exceeds the limit`));
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new DomainException(domainError('validation', 'unsupported_encoding', 'The request body encoding is not supported'));
  }
  return err;
}
