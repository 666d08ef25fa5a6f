import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks headers (decisions §9): `webhook-signature` is `v1,` + base64 HMAC-SHA256 over
 * `{id}.{timestamp}.{body}`, keyed with the 64-byte SHA-512 digest of the secret. The id stays the
 * same on every retry so receivers can deduplicate; the timestamp is the attempt's own. Several
 * keys (a rotation's overlap, decisions §15) give one signature each, space-separated, in the
 * order given (the new key first): a receiver holding any of the secrets verifies.
 */
export function signatureHeaders(
  keys: Buffer | readonly Buffer[],
  id: string,
  body: string,
  nowMs: number,
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signatures = (Buffer.isBuffer(keys) ? [keys] : keys).map(
    (key) => `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
