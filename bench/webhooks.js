'use strict';
// Commit → webhook receiver: a local HTTPS receiver with the test-only certificate (the API trusts
// it through NODE_EXTRA_CA_CERTS and may deliver to 127.0.0.1 with WEBHOOK_ALLOW_PRIVATE_NETWORKS),
// one webhook on the transfers' entity subscribed to outflows.created, and for each transfer the
// time its delivery arrived minus the time its POST /transfer response arrived. The commit falls
// between the request leaving and its response arriving, so the figure from the response
// understates commit → receiver (by what the API does after the commit) and the one from the
// request overstates it (by what it does before): both are printed.
const https = require('node:https');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { must } = require('./client');
const { percentile } = require('./support');

const TLS = join(__dirname, '..', 'test', 'fixtures', 'tls');
const CA = join(TLS, 'ca.crt');
/** What the API process needs to deliver to this receiver. */
const RECEIVER_ENV = { NODE_EXTRA_CA_CERTS: CA, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

/** Answers 200 to every delivery and notes when each outflows.created for a transfer arrived. */
function startReceiver() {
  const created = new Map(); // transfer id → performance.now() of its first delivery
  let deliveries = 0;
  const server = https.createServer(
    { key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.crt')) },
    (req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        deliveries += 1;
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const id = payload.data?.id;
        if (payload.event === 'outflows.created' && id && !created.has(id)) created.set(id, at);
        res.writeHead(200).end();
      });
    },
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        created,
        deliveries: () => deliveries,
        url: (path) => `https://127.0.0.1:${port}${path}`,
        close: () => new Promise((r) => server.close(r)),
      });
    }),
  );
}

async function subscribe(base, receiver, entityId) {
  const body = {
    entity_id: entityId,
    url: receiver.url('/transfers'),
    secret: 'bench-webhook-secret-0123456789',
    enabled_events: { outflows: ['created'] },
  };
  return (await must(base, 'POST', '/entity-webhooks', body)).id;
}

/**
 * Sends one transfer and waits for its delivery: the router reads the bus in order, so once it
 * arrives the router has worked through the backlog of earlier phases (/health does not show it).
 */
async function routerCaughtUp(base, receiver, transfer, timeoutMs = 120_000) {
  const { id } = await must(base, 'POST', '/transfer', transfer);
  await drained(receiver, new Map([[id, null]]), timeoutMs);
  return receiver.created.has(id);
}

/** Waits (up to `timeoutMs`: a backlog may take a while) until every transfer answered in `responses` has been delivered. */
async function drained(receiver, responses, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while ([...responses.keys()].some((id) => !receiver.created.has(id)) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
}

/**
 * `responses`: transfer id → { sentAt, answeredAt } (performance.now()). p50/p99 of delivery arrival
 * − response arrival, and p99 from the request leaving; `missing` never arrived and counts as
 * infinitely late, so the percentiles cannot look better by losing deliveries.
 */
function webhookLatency(receiver, responses) {
  const fromResponse = [];
  const fromRequest = [];
  for (const [id, { sentAt, answeredAt }] of responses) {
    const at = receiver.created.get(id) ?? Infinity;
    fromResponse.push(at - answeredAt);
    fromRequest.push(at - sentAt);
  }
  const ms = (list, p) =>
    Math.round(
      percentile(
        list.sort((a, b) => a - b),
        p,
      ),
    );
  const missing = [...responses.keys()].filter((id) => !receiver.created.has(id)).length;
  return {
    transfers: responses.size,
    delivered: responses.size - missing,
    missing,
    p50: ms(fromResponse, 50),
    p99: ms(fromResponse, 99),
    p99_from_request: ms(fromRequest, 99),
  };
}

module.exports = { RECEIVER_ENV, startReceiver, subscribe, routerCaughtUp, drained, webhookLatency };
