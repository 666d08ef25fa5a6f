'use strict';
// Commit → webhook receiver at fixed transfer rates (issue 28, item 4), on `npm start`'s service
// (server.js api: the API and its worker with every role), without the full-load phase before it:
// the route's own latency where CPU is not the limit (a low rate) and nearer it (a higher one).
//
//   node webhook-rates.js            # BENCH_WEBHOOK_RATES (50,200) transfers/s, BENCH_SECONDS (10) each
//
// Per rate: p50/p99 of delivery arrival − response arrival (webhooks.js), the publish lag from
// /health (lag.js), the API's and the worker's CPU per transfer (/proc) and the load average, since
// the machine may be shared. Prints figures; asserts nothing.
const os = require('node:os');
const { readFileSync } = require('node:fs');
const { start, stop, health } = require('./client');
const { setUp } = require('./world');
const { openLoop } = require('./load');
const { sampleLog, lagOf, caughtUp } = require('./lag');
const { RECEIVER_ENV, startReceiver, subscribe, routerCaughtUp, drained, webhookLatency } = require('./webhooks');

const PORT = Number(process.env.BENCH_WEBHOOK_PORT || 4130);
const RATES = (process.env.BENCH_WEBHOOK_RATES || '50,200').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);

/** User + system CPU ms of a process so far (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const receiver = await startReceiver();
  const api = await start('api', PORT, RECEIVER_ENV);
  const base = `http://127.0.0.1:${PORT}`;
  try {
    const world = await setUp(base);
    await subscribe(base, receiver, world.entity);
    let n = 0;
    const next = () => {
      n += 1;
      return {
        method: 'POST',
        path: '/transfer',
        body: {
          account_id: world.accounts[n % world.accounts.length],
          payment_detail_id: world.pmd,
          amount: 100,
          payment_type: 'bank-transfer',
          unique_reference: `rate-${process.pid}-${n}`,
        },
      };
    };
    const rows = [];
    for (const rate of RATES) {
      await caughtUp(base, 120_000);
      await routerCaughtUp(base, receiver, next().body);
      const workerPid = (await health(base)).worker?.pid;
      const cpu0 = [cpuMs(api.pid), workerPid ? cpuMs(workerPid) : 0];
      const responses = new Map();
      const onAnswer = (status, body, at, due) =>
        status === 201 && responses.set(JSON.parse(body).id, { sentAt: due, answeredAt: at });
      const sampler = sampleLog(base);
      const half = await openLoop({ base, seconds: SECONDS, rate, next, onAnswer });
      const log = await sampler.settle();
      await drained(receiver, responses);
      const cpu1 = [cpuMs(api.pid), workerPid ? cpuMs(workerPid) : 0];
      const w = webhookLatency(receiver, responses);
      const published = lagOf(log, 'published');
      const perTransfer = (i) => ((cpu1[i] - cpu0[i]) / Math.max(1, responses.size)).toFixed(2);
      rows.push({
        rate,
        'POST p50/p99 ms': `${half.p50} / ${half.p99}`,
        'webhook p50/p99 ms': `${w.p50} / ${w.p99}`,
        'from request p99 ms': w.p99_from_request,
        delivered: `${w.delivered}/${w.transfers}`,
        'publish lag p50/p99 ms': `${published.p50} / ${published.p99}`,
        'API / worker CPU ms per transfer': `${perTransfer(0)} / ${perTransfer(1)}`,
        'load avg (1 min)': os.loadavg()[0].toFixed(2),
      });
      console.log(JSON.stringify(rows[rows.length - 1]));
    }
    console.table(rows);
  } finally {
    await stop(api);
    await receiver.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
