'use strict';
// The scale figures of issue 14, each beside its target, after the HTTP phases of `npm run bench`
// (or alone: `node scale.js`):
// - list-query p50/p99 on a million read-model documents (list-queries.js, its own process);
// - transfer latency and the API process's memory with BENCH_STORED_EVENTS (10 thousand, then
//   1 million) events already in the log: generate-log.js writes them, the API starts on that
//   DATA_DIR, its readers catch up, then transfers run closed loop for BENCH_SECONDS.
const { spawn } = require('node:child_process');
const { existsSync, readFileSync, rmSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { generateLog } = require('./generate-log');
const { report } = require('./support');
const { KEY, health, start, stop } = require('./client');
const { setUp } = require('./world');
const { caughtUp } = require('./lag');

const CATCH_UP_MS = 30 * 60_000;

const SIZES = (process.env.BENCH_STORED_EVENTS || '10000,1000000').split(',').map(Number);
const DURATION = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 10;
const PORT = 4110;

const memoryMb = (pid, field) =>
  Math.round(
    Number(
      /(\d+) kB/.exec(
        readFileSync(`/proc/${pid}/status`, 'utf8')
          .split('\n')
          .find((l) => l.startsWith(field)),
      )[1],
    ) / 1024,
  );

async function transfersOn(stored) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-stored-'));
  const generated = await generateLog(dir, stored);
  const child = await start('api', PORT, { DATA_DIR: dir });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    const caughtUpIn = Date.now();
    if (!(await caughtUp(base, CATCH_UP_MS))) throw new Error(`readers still behind after ${CATCH_UP_MS} ms`);
    const catchUpSeconds = ((Date.now() - caughtUpIn) / 1000).toFixed(1);
    const { accounts, pmd } = await setUp(base);
    let n = 0;
    const setupRequest = (req) => {
      n += 1;
      const body = {
        account_id: accounts[n % accounts.length],
        payment_detail_id: pmd,
        amount: 100,
        payment_type: 'bank-transfer',
        unique_reference: `scale-${stored}-${n}`,
      };
      return { ...req, body: JSON.stringify(body) };
    };
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const r = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `${base}/transfer`,
          duration: DURATION,
          connections: CONNECTIONS,
          headers,
          requests: [{ method: 'POST', setupRequest }],
        },
        (e, res) => (e ? reject(e) : resolve(res)),
      ),
    );
    // npm start's two processes: the API (this child) and the worker it supervises.
    const readers = (await health(base)).worker?.pid;
    const memory = { rss_mb: memoryMb(child.pid, 'VmRSS'), peak_rss_mb: memoryMb(child.pid, 'VmHWM') };
    if (readers)
      Object.assign(memory, {
        readers_rss_mb: memoryMb(readers, 'VmRSS'),
        readers_peak_rss_mb: memoryMb(readers, 'VmHWM'),
      });
    return {
      stored_events: stored,
      'log written in s': generated.seconds,
      'readers caught up in s': catchUpSeconds,
      'transfers/s': Math.round(r.requests.average),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      ...memory,
      non2xx: r.non2xx,
    };
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runScale() {
  console.log(
    `\n== list queries on ${process.env.BENCH_DOCUMENTS || 1_000_000} read-model documents (target p99 ≤ 20 ms)\n`,
  );
  await new Promise((resolve, reject) =>
    spawn(process.execPath, [join(__dirname, 'list-queries.js')], { stdio: 'inherit' }).once('exit', (c) =>
      c ? reject(new Error(`list-queries exited ${c}`)) : resolve(),
    ),
  );
  console.log(`\n== transfers with ${SIZES.join(' and ')} stored events (${CONNECTIONS} connections, ${DURATION}s)\n`);
  const rows = [];
  for (const size of SIZES) rows.push(await transfersOn(size));
  const [small, large] = [rows[0], rows[rows.length - 1]];
  const ratio = large.p50_ms / small.p50_ms;
  report('stored-events', rows, {
    p50_ratio: ratio,
    targets: { p50_within: '20% of the smallest log', peak_rss_mb: 512 },
  });
  console.log(
    `\ntransfer p50 with ${large.stored_events} stored events / with ${small.stored_events}: ${(ratio * 100).toFixed(0)}% (target ≤ 120%); peak RSS ${large.peak_rss_mb} MB API + ${large.readers_peak_rss_mb ?? '-'} MB worker (target ≤ 512 MB)`,
  );
  const lists = listResults();
  return { documents: lists?.documents, lists: lists?.rows, stored: rows };
}

/** list-queries.js runs in its own process and leaves its figures in results/list-queries.json. */
function listResults() {
  const file = join(__dirname, 'results', 'list-queries.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

module.exports = { runScale };

if (require.main === module) {
  runScale().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
