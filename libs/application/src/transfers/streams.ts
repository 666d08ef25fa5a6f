import { createHash } from 'node:crypto';
import { ulid } from '@app/platform/ids/ulid';

/**
 * A transfer's stream is named by its account and `unique_reference` (docs/decisions/transfers.md,
 * "One stream per transfer"), so the stream is the uniqueness check: the first `TransferCreated`
 * takes it, and a duplicate finds the original there without a reservation stream. The key is 80
 * bits of SHA-256 in upper-case hex (a subset of the ULID alphabet): a stream name never holds
 * caller text.
 */
const referenceKey = (accountId: string, uniqueReference: string) =>
  createHash('sha256').update(`${accountId}\n${uniqueReference}`, 'utf8').digest('hex').slice(0, 20).toUpperCase();

/**
 * The id is a ULID (time-ordered, unique per request) followed by the key: lists still sort by
 * creation time, two racing requests of one reference get two ids and one stream, a retry a day
 * later finds the same stream (the first id wins), and the stream of any id is a pure function of it.
 */
export const newTransferId = (accountId: string, uniqueReference: string) =>
  `trf_${ulid()}${referenceKey(accountId, uniqueReference)}`;

const KEYED_ID = /^trf_[0-9A-HJKMNP-TV-Z]{26}([0-9A-F]{20})$/;
/** Ids before keyed streams were plain ULIDs (26 characters) with a stream of their own. */
const LEGACY_ID = /^trf_[0-9A-HJKMNP-TV-Z]{26}$/;

export const isLegacyTransferId = (id: string) => LEGACY_ID.test(id);
export const isTransferId = (id: string) => KEYED_ID.test(id) || LEGACY_ID.test(id);

export const transferStreamFor = (accountId: string, uniqueReference: string) =>
  `transfer-ref_${referenceKey(accountId, uniqueReference)}`;

export function transferStream(id: string): string {
  const keyed = KEYED_ID.exec(id);
  return keyed ? `transfer-ref_${keyed[1]}` : `transfer-${id}`;
}

/** Older logs only: the reservation stream that bound a reference to a legacy transfer id. */
export const transferReferenceStream = (accountId: string, uniqueReference: string) =>
  `transfer-reference-${accountId}-${createHash('sha256').update(uniqueReference, 'utf8').digest('hex')}`;
