import { createHash, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string; 32 characters carry about 190 bits. */
export function randomToken(length = 32): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely.
  for (let i = 0; i < bytes.length && out.length < length; i++) if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
  return out.length === length ? out : out + randomToken(length - out.length);
}

/**
 * Credentials are high-entropy random strings, so a plain SHA-256 is a sound one-way lookup key
 * (a slow password hash buys nothing here and would cost every request).
 */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const newApiKey = (mode: 'sandbox' | 'live'): string =>
  `sk_${mode === 'sandbox' ? 'test' : 'live'}_${randomToken(32)}`;

export const modeOfKey = (key: string): 'sandbox' | 'live' | null =>
  key.startsWith('sk_test_') ? 'sandbox' : key.startsWith('sk_live_') ? 'live' : null;

const generateKeyPairAsync = promisify(generateKeyPair);

/** RSA-2048 pair for card-data encryption (RSA-OAEP, SHA-256); PEM, SPKI public and PKCS#8 private. */
export async function newEncryptionKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}
