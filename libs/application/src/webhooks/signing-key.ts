import { createHash, randomBytes } from 'node:crypto';
import type { SecretBox } from '@app/platform/security/secret-box';

/**
 * The HMAC key is the 64-byte SHA-512 digest of the secret (decisions §9): the secret itself is
 * never stored, and the digest is sealed under the master key before it enters an event, because
 * it is all a forger would need.
 */
export const signingKeyOf = (secret: string): Buffer => createHash('sha512').update(secret, 'utf8').digest();

export const sealSigningKey = (box: SecretBox, secret: string): string => box.seal(signingKeyOf(secret));

/** 32 random bytes, base64url (43 characters): within the 16-128 the API accepts. */
export const generateWebhookSecret = (): string => randomBytes(32).toString('base64url');

/** What a receiver gives a Standard Webhooks library: `whsec_` + base64 of the key. */
export const standardWebhooksSecret = (secret: string): string => `whsec_${signingKeyOf(secret).toString('base64')}`;
