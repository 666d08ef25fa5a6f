/**
 * A webhook receiver that verifies every delivery with the `standardwebhooks` package, given the
 * `signing_secret` (`whsec_…`) the API returned once, when the webhook was created.
 *
 *   SIGNING_SECRET=whsec_… PORT=4242 npm run example:webhook-receiver
 *
 * Deliveries are POSTs signed as Standard Webhooks (decisions §9): headers `webhook-id`,
 * `webhook-timestamp` and `webhook-signature`; the body is `{id, event, created, entity_id, data}`.
 * Verify the raw body, before parsing it; answer 2xx quickly (the API retries anything else), and
 * expect a delivery more than once (at-least-once: `id` tells repeats apart).
 * Rotating the secret (`POST /entity-webhooks/{id}/rotate-secret`, decisions §15) keeps the old one
 * valid for `expire_previous_in` seconds: every delivery meanwhile carries both signatures, so this
 * receiver keeps verifying with the old `SIGNING_SECRET` until it is restarted with the new one.
 * A webhook subscribed to `card_authorizations.request` (decisions §16) decides the entity's card
 * authorizations: answer at once (within CARD_AUTHORIZATION_TIMEOUT_MS, 2 s by default) with
 * `{"approved": true}`, `{"approved": true, "amount": <less>}` or `{"approved": false, "reason": "…"}`;
 * anything else, or nothing in time, leaves the decision to the card's `authorization_fallback`.
 * The API delivers to https URLs only: put this behind a TLS terminator or tunnel, or pass
 * `serverOptions` with a certificate (test/openapi/typed-client.e2e.spec.ts does).
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** The delivery body (decisions §9). */
export interface Delivery {
  readonly id: string;
  readonly event: string;
  readonly created: number;
  readonly entity_id: string;
  readonly test?: boolean;
  readonly data: Record<string, unknown>;
}

/** The answer to `card_authorizations.request` (decisions §16). */
export interface AuthorizationAnswer {
  readonly approved: boolean;
  /** A partial approval: 1 ≤ amount ≤ the requested `data.amount`. */
  readonly amount?: number;
  /** At most 100 characters, recorded on the card transaction. */
  readonly reason?: string;
}

/** An example rule: approve up to 500.00 of the card's currency, the rest of a larger amount declined. */
export const approveUpTo50000 = (request: Delivery): AuthorizationAnswer =>
  Number(request.data.amount) <= 50_000
    ? { approved: true }
    : { approved: true, amount: 50_000, reason: 'approved up to 500.00' };

/**
 * A request handler that answers 204 to a verified delivery (after `onDelivery`), 200 with the
 * decision to a verified `card_authorizations.request` (from `decide`), and 400 to anything else.
 */
export function webhookReceiver(
  signingSecret: string,
  onDelivery: (delivery: Delivery) => void | Promise<void>,
  decide: (request: Delivery) => AuthorizationAnswer | Promise<AuthorizationAnswer> = approveUpTo50000,
): RequestListener {
  const webhook = new Webhook(signingSecret);
  const seen = new Set<string>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        );
        let delivery: Delivery;
        try {
          delivery = webhook.verify(body, headers) as Delivery;
        } catch (error) {
          res
            .writeHead(400, { 'content-type': 'text/plain' })
            .end(error instanceof WebhookVerificationError ? error.message : 'not a delivery');
          return;
        }
        if (delivery.event === 'card_authorizations.request') {
          // Asked once, and waited for: the answer is the decision (a failure here is the card's fallback).
          const answer = await Promise.resolve(decide(delivery)).catch(() => null);
          if (answer) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
          else res.writeHead(500).end();
          return;
        }
        try {
          // At least once: a retried delivery carries the same id.
          if (!seen.has(delivery.id)) {
            seen.add(delivery.id);
            await onDelivery(delivery);
          }
          res.writeHead(204).end();
        } catch {
          // Not handled: a non-2xx makes the API try again later.
          res.writeHead(500).end();
        }
      })();
    });
  };
}

if (require.main === module) {
  const secret = process.env.SIGNING_SECRET;
  if (!secret?.startsWith('whsec_')) {
    console.error('Set SIGNING_SECRET to the signing_secret (whsec_…) of POST /entity-webhooks');
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 4242);
  createServer(webhookReceiver(secret, (d) => console.log(`${d.event} ${d.id}`, JSON.stringify(d.data)))).listen(
    port,
    () => console.log(`listening on http://localhost:${port}`),
  );
}
