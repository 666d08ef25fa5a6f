import express, { type RequestHandler } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

/**
 * JSON and form bodies, with parser failures turned into domain errors at the source:
 * NestJS would otherwise rewrap them as a generic 400 and lose which failure it was.
 */
export function bodyParsing(limit = '1mb'): RequestHandler[] {
  return [express.json({ limit, strict: true }), express.urlencoded({ extended: false, limit })].map(
    (parse): RequestHandler =>
      (req, res, next) =>
        parse(req, res, (err?: unknown) => next(err ? translate(err) : undefined)),
  );
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
