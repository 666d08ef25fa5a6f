import { createHash } from 'node:crypto';
import { domainError, type DomainError } from '@app/domain';
import type { Actor } from '@app/application/command-handling';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The methods a key applies to (decisions §13); on any other it is ignored, as GET is safe to retry. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE']);

/** 1-255 visible ASCII characters (VCHAR, %x21-7E): no space, tab, control character or non-ASCII byte. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The key of a request, or the 400 `invalid_idempotency_key` it earns. Node joins a header sent
 * twice with ", ", which has a space: two keys are refused rather than one picked.
 */
export function parseIdempotencyKey(value: string | string[]): string | DomainError {
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (VALID_KEY.test(key)) return key;
  const why =
    key.length === 0
      ? 'is empty'
      : key.length > 255
        ? `has ${key.length} characters`
        : 'has a character that is not visible ASCII';
  const message = `Idempotency-Key must be 1-255 visible ASCII characters; this one ${why}`;
  return domainError('validation', 'invalid_idempotency_key', message, {
    errors: [{ field: 'Idempotency-Key', message }],
  });
}

/**
 * Whose keys (docs/decisions/idempotency.md): the credential's organization and mode, shared by
 * every API key of both (as Stripe scopes keys per account); an entity token's keys are its
 * entity's own within those, so two entities' tokens can never be answered with each other's
 * results, whatever key their clients pick.
 */
export function scopeOf(actor: Actor): string {
  const base = `${actor.organizationId}:${actor.mode}`;
  return actor.kind === 'entity_token' ? `${base}:entity:${actor.entityId}` : base;
}

/** An uploaded file as multer leaves it on the request. */
export interface UploadedPart {
  readonly fieldname: string;
  readonly originalname: string;
  readonly mimetype: string;
  readonly buffer: Buffer;
}

export interface FingerprintedRequest {
  readonly method: string;
  /** Path with its query, as sent (`req.originalUrl`). */
  readonly url: string;
  /** The parsed body (JSON, form fields or multipart fields); undefined without one. */
  readonly body: unknown;
  /** A multipart upload's file, by its content digest. */
  readonly file?: UploadedPart;
}

/**
 * SHA-256 of method, path with query, and the body in canonical JSON (keys sorted at every
 * level): the request the handler would see, so key order and whitespace do not make a retry a
 * different request, while any change of value does.
 */
export function fingerprintOf(request: FingerprintedRequest): string {
  const file = request.file
    ? {
        field: request.file.fieldname,
        name: request.file.originalname,
        type: request.file.mimetype,
        sha256: createHash('sha256').update(request.file.buffer).digest('hex'),
      }
    : null;
  return createHash('sha256')
    .update(
      `${request.method.toUpperCase()}\n${request.url}\n${canonicalJson(request.body ?? null)}\n${canonicalJson(file)}`,
    )
    .digest('base64url');
}

/** JSON with object keys sorted, without recursion (bodies may nest 64 levels, decisions §2). */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: Array<{ value: unknown } | { text: string }> = [{ value }];
  while (stack.length) {
    const item = stack.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      const parts: Array<{ value: unknown } | { text: string }> = [{ text: '[' }];
      v.forEach((element, i) =>
        parts.push(...(i ? [{ text: ',' }] : []), { value: element === undefined ? null : element }),
      );
      parts.push({ text: ']' });
      stack.push(...parts.reverse());
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v)
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .sort();
      const parts: Array<{ value: unknown } | { text: string }> = [{ text: '{' }];
      keys.forEach((k, i) =>
        parts.push({ text: `${i ? ',' : ''}${JSON.stringify(k)}:` }, { value: (v as Record<string, unknown>)[k] }),
      );
      parts.push({ text: '}' });
      stack.push(...parts.reverse());
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}
