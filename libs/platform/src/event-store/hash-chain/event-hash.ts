import { createHash } from 'node:crypto';
import type { EventMetadata } from '../event-store.port';

/** The "previous hash" of a stream's first event. */
export const GENESIS_HASH = '0'.repeat(64);

export interface HashedContent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

/**
 * JSON with every object's keys sorted (UTF-16 code unit order) and no whitespace. It goes through
 * JSON.stringify, so it drops `undefined` exactly as storing the event does: the hash of an event
 * computed before the append equals the one recomputed from what any adapter gives back.
 *
 * The sorted copy is made first and stringified without a replacer: a replacer function takes
 * JSON.stringify off its fast path and is called for every value (issue 28: the canonical JSON
 * was a sixth of an append's CPU in the API).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedCopy(value, ''));
}

/** What JSON.stringify would write for `value`, with each object's keys in sorted order (toJSON applied first, as it does). */
function sortedCopy(value: unknown, key: string): unknown {
  if (!value || typeof value !== 'object') return value;
  const json = (value as { toJSON?: (key: string) => unknown }).toJSON;
  if (typeof json === 'function') return sortedCopy(json.call(value, key), key);
  if (Array.isArray(value)) return value.map((item, i) => sortedCopy(item, String(i)));
  const object = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const name of Object.keys(object).sort()) sorted[name] = sortedCopy(object[name], name);
  return sorted;
}

/**
 * `hash` of decisions §10: SHA-256 (lowercase hex) of UTF-8
 * `<previous hash> "\n" canonicalJson({type, data, metadata without hash})`.
 */
export function eventHash(previousHash: string, event: HashedContent): string {
  const { hash: _ignored, ...metadata } = event.metadata as EventMetadata & { hash?: string };
  const body = canonicalJson({ type: event.type, data: event.data, metadata });
  return createHash('sha256').update(previousHash).update('\n').update(body).digest('hex');
}

export function storedHash(metadata: EventMetadata): string | undefined {
  return (metadata as EventMetadata & { hash?: string }).hash;
}
