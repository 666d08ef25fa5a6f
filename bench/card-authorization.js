'use strict';
// Decisions §16 (issue 30): 50 concurrent card authorizations wait on an entity's endpoint that
// answers after 1.5 s; meanwhile other routes are timed. The endpoint is asked with asynchronous
// I/O, so the API's event loop keeps serving: those routes' latency should stay where it was.
// Prints figures, asserts nothing. The service is `npm start` after a build:
//
//   npm --prefix bench ci && npm run build && node bench/card-authorization.js
//
// BENCH_CARD_AUTHORIZATIONS (50) concurrent authorizations, BENCH_ENDPOINT_DELAY_MS (1500).
const { readFileSync } = require('node:fs');
const { createServer: createNetServer } = require('node:net');
const { createServer } = require('node:https');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const AUTHORIZATIONS = Number(process.env.BENCH_CARD_AUTHORIZATIONS || 50);
const DELAY_MS = Number(process.env.BENCH_ENDPOINT_DELAY_MS || 1500);
const TLS = join(__dirname, '..', 'test', 'fixtures', 'tls');
const MERCHANT = { name: 'Bench Books', mcc: '5942', city: 'Lagos', state: 'LA', postal_code: '100001', country: 'NG' };

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** The card program's endpoint: approves every authorization after DELAY_MS (the signature is the tests' concern). */
function slowEndpoint() {
  const server = createServer(
    { key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.crt')) },
    (req, res) => {
      req.resume();
      req.on('end', () =>
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"approved":true}'), DELAY_MS),
      );
    },
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Times GET routes one after another until `until()` says stop; returns the latencies (ms). */
async function sampleRoutes(call, paths, until) {
  const times = [];
  for (let i = 0; !until(); i++) {
    const t0 = performance.now();
    const res = await call('GET', paths[i % paths.length]);
    if (res.status !== 200) throw new Error(`GET ${paths[i % paths.length]} answered ${res.status}`);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const row = (name, times) =>
  `| ${name.padEnd(36)} | ${String(times.length).padStart(7)} | ${percentile(times, 50).toFixed(1).padStart(8)} | ${percentile(times, 95).toFixed(1).padStart(8)} | ${times[times.length - 1].toFixed(1).padStart(8)} |`;

async function main() {
  process.env.BENCH_HISTORY_PORT ||= String(await freePort());
  // The API trusts the endpoint's test-only certificate (as the webhook bench's receiver).
  process.env.NODE_EXTRA_CA_CERTS = join(TLS, 'ca.crt');
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
  process.env.CARD_AUTHORIZATION_TIMEOUT_MS ||= String(DELAY_MS * 3);
  const { KEYS, startService, stopService, caller } = require('./history-service');
  const endpoint = await slowEndpoint();
  const service = await startService();
  try {
    const call = caller(service.base, KEYS.sandbox);
    const entity = (
      await call('POST', '/entities', {
        first_name: 'Bench',
        last_name: 'Program',
        email: 'b@example.com',
        country: 'NG',
      })
    ).body.id;
    const account = (
      await call('POST', '/accounts', { entity_id: entity, type: 'checking', currency: 'USD', display_name: 'Program' })
    ).body.id;
    await call('POST', `/sandbox/accounts/${account}/fund`, { amount: 100_000_000, currency: 'USD' });
    const url = `https://127.0.0.1:${endpoint.address().port}/authorize`;
    const hook = await call('POST', '/entity-webhooks', {
      entity_id: entity,
      url,
      secret: 'bench-secret-0123456789',
      enabled_events: { card_authorizations: ['request'] },
    });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
    const cardholder = {
      first_name: 'Ada',
      last_name: 'Okafor',
      email: 'ada@example.com',
      phone_number: '+2348012345678',
    };
    const card = (
      await call('POST', '/virtual-cards', {
        account_id: account,
        card_name: 'Bench',
        cardholder,
        currency: 'USD',
        amount: 100_000_000,
      })
    ).body.data.id;
    const paths = [`/accounts/${account}`, `/card-details/${card}`, `/entities/${entity}`];

    // Baseline: the same routes for as long as the authorizations will take, nothing else running.
    const baselineEnd = Date.now() + DELAY_MS;
    const baseline = await sampleRoutes(call, paths, () => Date.now() > baselineEnd);

    let done = 0;
    const t0 = Date.now();
    const authorizations = Array.from({ length: AUTHORIZATIONS }, () =>
      call('POST', `/sandbox/cards/${card}/authorizations`, {
        amount: 100,
        currency: 'USD',
        merchant: MERCHANT,
      }).finally(() => done++),
    );
    const during = await sampleRoutes(call, paths, () => done >= AUTHORIZATIONS);
    const answers = await Promise.all(authorizations);
    const sources = {};
    for (const a of answers) {
      const key = `${a.status} ${a.body?.data?.status} ${a.body?.data?.authorization?.source} ${a.body?.data?.authorization?.reason}`;
      sources[key] = (sources[key] ?? 0) + 1;
    }
    const logs = (await call('GET', `/webhook-logs?entity_id=${entity}&limit=100`)).body.data ?? [];
    const errors = [...new Set(logs.map((l) => l.error).filter(Boolean))];
    if (errors.length) console.log(`endpoint errors in the webhook log: ${errors.join('; ')}`);
    console.log(
      `\n${AUTHORIZATIONS} concurrent authorizations against an endpoint answering after ${DELAY_MS} ms: all answered in ${Date.now() - t0} ms`,
    );
    console.log(
      `their outcomes (status, card transaction status, authorization source and reason): ${JSON.stringify(sources)}\n`,
    );
    console.log(`Other routes (${paths.map((p) => p.replace(/_[0-9A-Z]{26}/, '_…')).join(', ')}), one at a time:\n`);
    console.log('| while                                | samples | p50 (ms) | p95 (ms) | max (ms) |');
    console.log('| ------------------------------------ | ------- | -------- | -------- | -------- |');
    console.log(row('nothing else runs', baseline));
    console.log(row(`${AUTHORIZATIONS} authorizations waiting`, during));
  } finally {
    await stopService(service);
    endpoint.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
