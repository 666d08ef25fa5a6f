import { createHash } from 'node:crypto';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
export const paymentIntentStream = (id: string) => `payment-intent-${id}`;
export const intentActionStream = (id: string) => `intent-action-${id}`;
/** Ids from a URL are checked before they name a stream. */
export const isPaymentIntentId = (id: string) => new RegExp(`^pi_${ULID}$`).test(id);
export const isIntentActionId = (id: string) => new RegExp(`^ia_${ULID}$`).test(id);
/** The reference is caller text, so the stream is named after its hash (as transfers do). */
export const intentReferenceStream = (accountId: string, reference: string) =>
  `payment-intent-reference-${accountId}-${createHash('sha256').update(reference, 'utf8').digest('hex')}`;
