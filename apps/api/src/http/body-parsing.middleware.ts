import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpException, HttpStatus } from '@nestjs/common';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { hasBody, isKind, mediaTypeOf, unsupportedMessage, type BodyKind } from './media-types';
import { RouteTable } from './route-table';
import { scanJson, type JsonScanFinding } from './json-scan';
import { MAX_BODY_DEPTH } from './request-shape.middleware';

/**
 * Strict HTTP at the edge (decisions §2), before authentication, for every request:
 * - a known path with a method none of its routes serves: 405 `method_not_allowed` with `Allow`
 *   (OPTIONS on a known path answers 204 with `Allow`);
 * - a body the route does not take (JSON unless its handler says otherwise with @Accepts):
 *   415 `unsupported_media_type`, so no body is ever silently ignored or read as another kind;
 * - otherwise the body is parsed as the kind it is (multipart is left to the route's
 *   interceptor), with parser failures turned into domain errors at the source: NestJS would
 *   otherwise rewrap them as a generic 400 and lose which failure it was;
 * - a JSON body is scanned once before JSON.parse (json-scan.ts): a key twice in one object, or
 *   nesting past 64 levels, is 400 `invalid_json`, and a charset other than UTF-8 is refused
 *   (RFC 8259 §8.1: JSON between systems is UTF-8).
 * A request without a body passes whatever its Content-Type; an unknown path passes untouched,
 * for Nest's 404.
 */
export function bodyParsing(limit = '1mb'): RequestHandler {
  // Which kind a body is has been decided here already, so the parsers take any Content-Type.
  const parsers: Record<BodyKind, RequestHandler | null> = {
    json: express.json({ limit, strict: true, type: () => true, verify: scanned }),
    form: express.urlencoded({ extended: false, limit, type: () => true }),
    multipart: null,
  };
  // Read on the first request, when every route is registered: one app's middleware, one app's routes.
  let routes: RouteTable | undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    const found = (routes ??= RouteTable.read(req.app)).resolve(req.method, pathOf(req.originalUrl));
    if (found.kind === 'unknown') return next();
    if (found.kind === 'other_methods') {
      res.setHeader('Allow', found.allow);
      if (req.method === 'OPTIONS') return void res.status(HttpStatus.NO_CONTENT).end();
      return next(
        new HttpException(
          `${req.method} is not allowed here; this path takes ${found.allow}`,
          HttpStatus.METHOD_NOT_ALLOWED,
        ),
      );
    }
    if (!hasBody(req.headers)) return next();
    const mediaType = mediaTypeOf(req.headers['content-type']);
    const kind = mediaType === null ? undefined : found.accepts.find((k) => isKind(k, mediaType));
    if (!kind)
      return next(new HttpException(unsupportedMessage(mediaType, found.accepts), HttpStatus.UNSUPPORTED_MEDIA_TYPE));
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

/** body-parser's hook on the raw bytes, before it decodes and parses them: a throw is its refusal, with the thrown `type`. */
function scanned(_req: unknown, _res: unknown, body: Buffer, encoding: string | null): void {
  if (encoding !== null && !/^utf-?8$/i.test(encoding))
    throw Object.assign(new Error(`charset ${encoding}`), { type: 'charset.unsupported' });
  const finding = scanJson(body, MAX_BODY_DEPTH);
  if (finding) throw Object.assign(new Error(finding.kind), { type: 'entity.scan.refused', finding });
}

/** A key as the answer names it: control characters shown as `?` and at most 200 characters, since the caller chose it. */
const printable = (text: string) =>
  (text.length > 200 ? `${text.slice(0, 200)}…` : text).replace(/[\u0000-\u001f\u007f]/g, '?');

function translate(err: unknown): unknown {
  const { type, finding } = err as { type?: string; finding?: JsonScanFinding };
  if (finding?.kind === 'too_deep')
    return new DomainException(
      domainError('validation', 'invalid_json', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`),
    );
  if (finding?.kind === 'duplicate_key') {
    const [key, path] = [printable(finding.key), printable(finding.path)];
    const message = `The key "${key}" appears twice in one object (at ${path}): each key may appear once`;
    return new DomainException(
      domainError('validation', 'invalid_json', message, {
        errors: [{ field: path, message: `${path} appears more than once` }],
      }),
    );
  }
  if (type === 'entity.parse.failed')
    return new DomainException(domainError('validation', 'invalid_json', 'The request body is not valid JSON'));
  if (type === 'entity.too.large')
    return new DomainException(domainError('too_large', 'payload_too_large', `The request body exceeds the limit`));
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new DomainException(
      domainError('validation', 'unsupported_encoding', 'The request body encoding is not supported'),
    );
  }
  return err;
}
