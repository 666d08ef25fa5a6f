import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks headers (decisions §9): `webhook-signature` is `v1,` + base64 HMAC-SHA256 over
 * `{id}.{timestamp}.{body}`, keyed with the 64-byte SHA-512 digest of the secret. The id stays the
 * same on every retry so receivers can deduplicate; the timestamp is the attempt's own.
 */
export function signatureHeaders(key: Buffer, id: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
