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
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? sortKeys(v as Record<string, unknown>) : v));
}

function sortKeys(object: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) sorted[key] = object[key];
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
