import { hash } from 'node:crypto';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
export const WEBHOOK_ID = new RegExp(`^whk_${ULID}$`);

/** Ids from a URL are checked before they name a stream (older logs hold `webhook-delivery-…` streams, which share the prefix). */
export const isWebhookId = (id: string) => WEBHOOK_ID.test(id);
export const webhookStream = (id: string) => `webhook-${id}`;
/** The webhooks of an entity (entity ids are unique platform-wide, so the organization is implied). */
export const webhookIndexStream = (entityId: string) => `webhook-index-${entityId}`;
/** Marks that WebhookCreated events older than the index were indexed (libs/webhook-delivery backfill). */
export const WEBHOOK_INDEX_BACKFILL_STREAM = 'webhook-index-backfill';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID that keeps the time of `seed` (a ULID) and takes its random part from a hash of the seed
 * and `parts`: the same inputs always give the same id, so a redelivered bus message names the
 * same public event and the same delivery stream, which is how redeliveries are deduplicated.
 */
export function derivedUlid(seed: string, ...parts: string[]): string {
  // One-shot: no Hash object per id (half the CPU; an event stream derives one per public event).
  const digest = hash('sha256', [seed, ...parts].join('\u0000'), 'buffer');
  let bits = 0n;
  for (const byte of digest.subarray(0, 10)) bits = (bits << 8n) | BigInt(byte);
  let random = '';
  for (let i = 0; i < 16; i++) random = CROCKFORD[Number((bits >> BigInt(5 * i)) & 31n)] + random;
  return seed.slice(-26, -16) + random;
}
