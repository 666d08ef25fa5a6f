import { createHash } from 'node:crypto';

/**
 * One reservation stream per account and inflow reference. The reference is hashed: it is caller
 * text, and a stream name must not depend on what a caller may type. Not `account-…`: that prefix
 * is the account's own stream (and the event history's `account` resource).
 */
export const inflowReferenceStream = (accountId: string, reference: string) =>
  `inflow-reference-${accountId}-${createHash('sha256').update(reference, 'utf8').digest('hex')}`;
