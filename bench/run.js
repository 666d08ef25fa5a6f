'use strict';
// npm run bench: transfer creation (embedded default) vs an empty NestJS POST route vs a raw
// Express route, in one run. This process generates the load; each target runs in its own child.
// Full load: closed loop, many connections, as fast as the target answers. 70%: open loop at a
// fixed overall rate (0.7 × the full-load rate) with more connections than that rate needs, so
// requests leave on schedule rather than waiting for earlier answers.
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const autocannon = require('autocannon');

const KEY = 'sk_test_benchbenchbenchbenchbenchbench';
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS || 20);

function start(mode, port, env = {}) {
  const child = spawn(process.execPath, [`${__dirname}/server.js`, mode, String(port)], {
    // The service resolves its relative defaults (datasets/fx-rates.json) from the repository root.
    cwd: join(__dirname, '..'),
    env: { ...process.env, PAYMENTS_BOOTSTRAP_API_KEYS: KEY, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('READY') && resolve(child));
    child.on('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
  });
}

async function call(base, method, path, body) {
  const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** An approved entity, funded USD accounts and a bank payment detail for the transfers. */
async function setUp(base) {
  const must = async (p, expected = 201) => {
    const r = await p;
    if (r.status !== expected) throw new Error(`setup: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const entity = (await must(call(base, 'POST', '/entities', { type: 'individual', first_name: 'Bench', last_name: 'Mark', email: 'b@example.com', country: 'US' }))).id;
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = (await must(call(base, 'POST', '/accounts', { entity_id: entity, currency: 'USD' }))).id;
    await must(call(base, 'POST', `/sandbox/accounts/${account}/fund`, { amount: 1e13, currency: 'USD' }));
    accounts.push(account);
  }
  const cpt = (await must(call(base, 'POST', '/counterparties', { type: 'individual', entity_id: entity, profile: { first_name: 'Grace', last_name: 'Hopper' } }))).id;
  const pmd = (await must(call(base, 'POST', `/counterparties/${cpt}/payment-details`, { payment_method: 'bank-transfer', currency: 'USD', country: 'US', bank: { account_number: '123456789', scheme: 'aba', code: '021000021' } }))).id;
  for (let i = 0; i < 100; i++) {
    const probe = await call(base, 'POST', '/transfer', { account_id: accounts[0], payment_detail_id: pmd, amount: 100, payment_type: 'bank-transfer', unique_reference: `probe-${i}` });
    if (probe.status === 201) return { accounts, pmd };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('payment detail never became visible');
}

function load(url, options) {
  return new Promise((resolve, reject) => autocannon({ url, duration: DURATION, connections: CONNECTIONS, method: 'POST', ...options }, (err, r) => (err ? reject(err) : resolve(r))));
}

const summary = (r) => ({ rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });

async function measure(name, url, options) {
  await load(url, { ...options, duration: 3 }); // warm-up
  const full = summary(await load(url, options));
  const rate = Math.max(1, Math.floor(full.rps * 0.7));
  const seventy = summary(await load(url, { ...options, overallRate: rate, connections: Math.max(CONNECTIONS * 4, 200) }));
  return { name, full, rate, seventy };
}

async function main() {
  const results = [];
  const targets = [
    ['raw Express POST', 'express', 4101],
    ['empty NestJS POST', 'nest-empty', 4102],
    ['POST /transfer (embedded)', 'api', 4103],
  ];
  for (const [name, mode, port] of targets) {
    const child = await start(mode, port);
    try {
      const base = `http://127.0.0.1:${port}`;
      if (mode === 'api') {
        const { accounts, pmd } = await setUp(base);
        let n = 0;
        const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
        const setupRequest = (req) => {
          n += 1;
          const body = { account_id: accounts[n % accounts.length], payment_detail_id: pmd, amount: 100, payment_type: 'bank-transfer', unique_reference: `bench-${process.pid}-${n}` };
          return { ...req, body: JSON.stringify(body) };
        };
        results.push(await measure(name, `${base}/transfer`, { headers, requests: [{ method: 'POST', setupRequest }] }));
      } else {
        results.push(await measure(name, `${base}/empty`, { headers: { 'content-type': 'application/json' }, body: '{}' }));
      }
    } finally {
      child.kill('SIGTERM');
    }
  }
  print(results);
}

function print(results) {
  console.log(`\n${DURATION}s per phase, ${CONNECTIONS} connections at full load, ${ACCOUNTS} source accounts for transfers\n`);
  console.log('target                       | full: req/s   p50   p99 | 70%: rate   req/s   p50   p99 | non-2xx');
  for (const r of results) {
    const f = r.full;
    const s = r.seventy;
    console.log(`${r.name.padEnd(28)} | ${String(f.rps).padStart(10)} ${String(f.p50).padStart(5)} ${String(f.p99).padStart(5)} | ${String(r.rate).padStart(9)} ${String(s.rps).padStart(7)} ${String(s.p50).padStart(5)} ${String(s.p99).padStart(5)} | ${f.non2xx + s.non2xx}`);
  }
  const nest = results.find((r) => r.name.startsWith('empty NestJS'));
  const transfer = results.find((r) => r.name.startsWith('POST /transfer'));
  if (nest && transfer) {
    const ratio = transfer.full.rps / nest.full.rps;
    console.log(`\ntransfer creation / empty NestJS route: ${(ratio * 100).toFixed(1)}% (target ≥ 35%); p99 at 70%: ${transfer.seventy.p99} ms (target ≤ 25 ms)`);
  }
}

module.exports = { KEY, start, setUp, call };

if (require.main === module) {
  main()
    // The scale figures (issue 14) follow the HTTP ones; BENCH_SCALE=0 skips them.
    .then(() => process.env.BENCH_SCALE !== '0' && require('./scale').runScale())
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
