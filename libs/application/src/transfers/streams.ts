import { createHash } from 'node:crypto';

export const transferStream = (id: string) => `transfer-${id}`;
export const isTransferId = (id: string) => /^trf_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);
/**
 * One reservation stream per account and reference. The reference is hashed: it is caller text
 * (any characters, up to 64), and a stream name must not depend on what a caller may type.
 */
export const transferReferenceStream = (accountId: string, uniqueReference: string) => `transfer-reference-${accountId}-${createHash('sha256').update(uniqueReference, 'utf8').digest('hex')}`;
