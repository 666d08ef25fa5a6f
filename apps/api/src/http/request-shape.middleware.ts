import type { NextFunction, Request, Response } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';

/** Decisions §2: deeper JSON is refused before anything recursive (class-transformer) walks it. */
export const MAX_BODY_DEPTH = 64;
/** Names that would reach an object's prototype if a library ever assigned them. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** Free text keeps tab and newline; every other control character is refused there too. */
const FREE_TEXT_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const FREE_TEXT_FIELDS = new Set(['description']);

interface Pending {
  readonly value: unknown;
  readonly path: string;
  readonly depth: number;
}

/**
 * The shape rules every JSON body and query string obeys, checked once at the edge for every
 * route (decisions §2): nesting depth, prototype keys and control characters. The walk is
 * iterative, so no input can exhaust the stack here.
 */
export function requestShape(req: Request, _res: Response, next: NextFunction): void {
  try {
    // Every body of this API is an object; express.json also takes a top-level array.
    if (Array.isArray(req.body))
      throw new DomainException(domainError('validation', 'invalid_json', 'The request body must be a JSON object'));
    checkShape(req.query, 'query');
    checkShape(req.body, 'body');
    next();
  } catch (error) {
    next(error);
  }
}

export function checkShape(root: unknown, where: 'body' | 'query'): void {
  const pending: Pending[] = [{ value: root, path: '', depth: 0 }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value, path, depth } = item;
    if (typeof value === 'string') checkText(value, path);
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > MAX_BODY_DEPTH) throw tooDeep(where);
    for (const key of Object.keys(value)) {
      const field = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(value)) checkKey(key, field);
      pending.push({ value: (value as Record<string, unknown>)[key], path: field, depth: depth + 1 });
    }
  }
}

function checkKey(key: string, field: string): void {
  if (PROTOTYPE_KEYS.has(key)) throw invalidField(field, `${field} is not an accepted field`);
  if (CONTROL_CHARACTERS.test(key)) {
    const printable = field.replace(/[\u0000-\u001f\u007f]/g, '?');
    throw invalidField(printable, `${printable} is not an accepted field`);
  }
}

function checkText(text: string, field: string): void {
  const name = field.slice(field.lastIndexOf('.') + 1);
  const refused = FREE_TEXT_FIELDS.has(name) ? FREE_TEXT_CONTROL_CHARACTERS : CONTROL_CHARACTERS;
  if (refused.test(text)) {
    const allowed = FREE_TEXT_FIELDS.has(name) ? ' other than tab and newline' : '';
    throw invalidField(field || 'body', `${field || 'body'} must not contain control characters${allowed}`);
  }
}

function invalidField(field: string, message: string): DomainException {
  return new DomainException(domainError('validation', 'validation_error', message, { errors: [{ field, message }] }));
}

function tooDeep(where: 'body' | 'query'): DomainException {
  return new DomainException(
    domainError('validation', 'invalid_json', `The request ${where} nests deeper than ${MAX_BODY_DEPTH} levels`),
  );
}
