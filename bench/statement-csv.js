'use strict';
// A month of BENCH_STATEMENT_LINES (20,000) lines downloaded as CSV (decisions §17, issue 31): the
// statement streams a page of the read model at a time, so the API's resident memory stays flat
// however long the month; the same month as JSON (one body, every line in memory) for contrast, and as PDF.
// Prints figures, asserts nothing. The service is `npm start` after a build:
//
//   npm --prefix bench ci && npm run build && node bench/statement-csv.js
//
// The lines are sandbox fundings of one account, BENCH_STATEMENT_CONNECTIONS (8) at a time; they
// land in the current UTC month (the platform's clock is the real one).
const { createServer } = require('node:net');
const { rssMb } = require('./rss');

/** A port free now, so this service never answers on another bench's (history-service's default is shared). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const LINES = Number(process.env.BENCH_STATEMENT_LINES || 20_000);
const CONNECTIONS = Number(process.env.BENCH_STATEMENT_CONNECTIONS || 8);
const SAMPLE_MS = 50;

/** Peak RSS of a process (MB) while `work` runs, sampled every SAMPLE_MS. */
async function peakDuring(pid, work) {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), SAMPLE_MS);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rssMb(pid) ?? 0) };
  } finally {
    clearInterval(timer);
  }
}

/** Reads a body to its end without keeping it: its bytes and its lines. */
async function drain(res) {
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) newlines++;
  }
  return { bytes, newlines };
}

async function fundings(call, account) {
  let next = 0;
  let refused = 0;
  const one = async () => {
    for (let i = next++; i < LINES; i = next++) {
      // A conflict on the one account stream is retried, as a client would.
      for (;;) {
        const res = await call('POST', `/sandbox/accounts/${account}/fund`, {
          amount: 1 + (i % 1000),
          currency: 'USD',
        });
        if (res.status === 201) {
          if ((i + 1) % 5000 === 0) console.log(`  ${i + 1} fundings`);
          break;
        }
        if (++refused > LINES)
          throw new Error(`funding refused too often, last ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, one));
  return refused;
}

async function main() {
  process.env.BENCH_HISTORY_PORT ||= String(await freePort());
  const { KEYS, startService, stopService, caller } = require('./history-service');
  const { caughtUp } = require('./lag');
  const service = await startService();
  try {
    if (service.api.exitCode !== null) throw new Error('the service exited at start');
    const call = caller(service.base, KEYS.sandbox);
    const entity = (
      await call('POST', '/entities', {
        type: 'individual',
        first_name: 'Bench',
        last_name: 'Statement',
        email: 'b@example.com',
        country: 'US',
      })
    ).body.id;
    const account = (await call('POST', '/accounts', { entity_id: entity, currency: 'USD' })).body.id;
    const started = Date.now();
    const refused = await fundings(call, account);
    console.log(
      `${LINES} fundings of ${account} in ${((Date.now() - started) / 1000).toFixed(1)} s (${refused} retried)`,
    );
    if (!(await caughtUp(service.base, 120_000))) throw new Error('readers still behind');

    const month = new Date().toISOString().slice(0, 7);
    const url = `${service.base}/accounts/${account}/statements/${month}`;
    const get = (accept) => fetch(url, { headers: { authorization: `Bearer ${KEYS.sandbox}`, accept } });
    const pid = service.api.pid;
    // A first small read warms the route (module loading, the first page's statements) before the baseline.
    await drain(
      await fetch(`${service.base}/accounts/${account}/statements/2020-01`, {
        headers: { authorization: `Bearer ${KEYS.sandbox}` },
      }),
    );
    const idle = rssMb(pid);
    const rows = [];
    for (const [name, accept] of [
      ['CSV', 'text/csv'],
      ['CSV again', 'text/csv'],
      ['JSON', 'application/json'],
      ['PDF', 'application/pdf'],
    ]) {
      const t0 = Date.now();
      const { result, peak } = await peakDuring(pid, async () => drain(await get(accept)));
      rows.push({ name, ms: Date.now() - t0, ...result, peak });
    }
    console.log(`\nGET /accounts/{id}/statements/${month}: ${LINES} lines; API RSS before: ${idle} MB\n`);
    console.log('| answer    | bytes      | lines  | time (ms) | API RSS peak (MB) | over before (MB) |');
    console.log('| --------- | ---------- | ------ | --------- | ----------------- | ---------------- |');
    for (const r of rows)
      console.log(
        `| ${r.name.padEnd(9)} | ${String(r.bytes).padStart(10)} | ${String(r.newlines).padStart(6)} | ${String(r.ms).padStart(9)} | ${String(r.peak).padStart(17)} | ${String(r.peak - idle).padStart(16)} |`,
      );
    console.log(
      '\n(CSV lines: the header, one per statement line and four totals. JSON: one body, the whole month in memory. PDF: streamed, a page of lines at a time.)',
    );
  } finally {
    await stopService(service);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
