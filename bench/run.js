'use strict';
// npm run bench (issue 14): every main write route's full-load rate against an empty NestJS POST
// route from the same run; each route's p50/p99 at 50% of its own full rate (open loop) beside a
// raw Express route's p99 at the same rate; under the 50% transfer load, the projection lag and
// commit → webhook receiver latency; then the scale figures (scale.js, BENCH_SCALE=0 skips them)
// and a summary table, also written to bench/results/summary.json. This process generates the
// load; each target runs in its own child process (server.js).
const os = require('node:os');
const { start, stop } = require('./client');
const { setUp } = require('./world');
const { selectedRoutes } = require('./routes');
const { idempotencyCost } = require('./idempotency');
const { RECEIVER_ENV, startReceiver } = require('./webhooks');
const { sampleRss } = require('./rss');
const phases = require('./phases');
const {
  table,
  routeRows,
  cpuLines,
  httpFigures,
  cpuFigures,
  rssFigures,
  scaleFigures,
  writeSummary,
} = require('./summary');

// BENCH_PORT_BASE (4100) moves the three ports, so two runs on one machine do not meet.
const PORT_BASE = Number(process.env.BENCH_PORT_BASE || 4100);
const PORTS = { express: PORT_BASE + 1, 'nest-empty': PORT_BASE + 2, api: PORT_BASE + 3 };
const url = (mode) => `http://127.0.0.1:${PORTS[mode]}`;

async function measured(mode, env, work) {
  const child = await start(mode, PORTS[mode], env);
  try {
    return await work(url(mode), child);
  } finally {
    await stop(child);
  }
}

/** Transfers first, then each other write route; a route whose setup fails is reported and skipped. */
async function apiPhases(receiver) {
  return measured('api', RECEIVER_ENV, async (base, child) => {
    const rss = sampleRss(base, child.pid);
    const transfer = await phases.transfers(base, await setUp(base), receiver, rss, child.pid);
    rss.mark('other routes');
    console.log(
      `measured ${transfer.name}: ${transfer.full.rps} req/s; readers and webhook router took ${transfer.backlogSeconds.toFixed(1)} s to clear the full-load backlog`,
    );
    const routes = [transfer];
    const failed = [];
    for (const route of selectedRoutes()) {
      try {
        routes.push(await phases.writeRoute(base, route, { webhookUrl: receiver.url }, child.pid));
        console.log(`measured ${route.name}: ${routes[routes.length - 1].full.rps} req/s`);
      } catch (err) {
        failed.push({ route: route.name, error: err.message });
        console.error(`skipped ${route.name}: ${err.message}`);
      }
    }
    return { routes, failed, rss: await rss.stop() };
  });
}

/** BENCH_EXPRESS_AT=transfer measures raw Express only at the transfer's 50% rate (shorter run). */
const expressRates = (routes) =>
  (process.env.BENCH_EXPRESS_AT === 'transfer' ? routes.slice(0, 1) : routes).map((r) => ({
    name: r.name,
    rate: r.rate,
  }));

async function httpPhases() {
  const receiver = await startReceiver();
  const express = await start('express', PORTS.express);
  try {
    const nest = await measured('nest-empty', {}, (base, child) => phases.emptyRoute(base, child.pid));
    const expressFull = await phases.emptyRoute(url('express'), express.pid);
    const { routes, failed, rss } = await apiPhases(receiver);
    const expressAt = await phases.expressAt(url('express'), expressRates(routes));
    return { nest, expressFull, routes, failed, expressAt, rss };
  } finally {
    await stop(express);
    await receiver.close();
  }
}

function printHttp({ nest, expressFull, routes, failed, expressAt }) {
  const { TRANSFER_SECONDS, ROUTE_SECONDS, WARMUP_SECONDS, CONNECTIONS } = phases;
  console.log(`\n${os.cpus().length} CPUs (${os.cpus()[0]?.model}), Node ${process.version}`);
  console.log(
    `full load: closed loop, ${CONNECTIONS} connections, after ${WARMUP_SECONDS}s warm-up; 50%: open loop at half that rate; transfers ${TRANSFER_SECONDS}s per phase, other routes ${ROUTE_SECONDS}s`,
  );
  console.log(
    `empty NestJS POST: ${nest.rps} req/s (p99 ${nest.p99} ms); raw Express POST: ${expressFull.rps} req/s (p99 ${expressFull.p99} ms)\n`,
  );
  table(routeRows(routes, nest, expressAt));
  console.log(
    [
      '\nCPU per request (/proc utime + stime; issue 28: ≤ 1.0 ms per transfer for each process):',
      ...cpuLines(routes[0], nest, expressFull),
    ].join('\n'),
  );
  const cost = idempotencyCost(routes);
  if (cost.length) console.log(['\nIdempotency-Key on POST /transfer:', ...cost].join('\n'));
  for (const r of routes)
    for (const s of [...r.full.samples, ...r.half.samples].slice(0, 3)) console.log(`  ${r.name} answered: ${s}`);
  for (const r of routes.filter((x) => !x.quiet))
    console.log(
      `  ${r.name}: readers still behind ${phases.CATCH_UP_MS / 1000} s after full load; 50% phase started on a backlog`,
    );
  for (const f of failed) console.log(`  not measured: ${f.route}: ${f.error}`);
}

async function main() {
  const http = await httpPhases();
  printHttp(http);
  const scale = process.env.BENCH_SCALE === '0' ? null : await require('./scale').runScale();
  // Events per transfer in the log, without and with a webhook (events.js; BENCH_EVENTS=0 skips it).
  const events = process.env.BENCH_EVENTS === '0' ? null : await require('./events').eventsPerTransfer();
  if (events) require('./events').printEvents(events);
  const transfer = http.routes[0];
  const figures = [
    ...httpFigures(http.routes, http.nest, http.expressAt),
    ...cpuFigures(transfer, http.nest),
    ...rssFigures(http.rss),
    ...scaleFigures(scale),
  ];
  console.log('\n== summary (issue 14, 20 and 28 targets)\n');
  table(figures);
  const settings = {
    transfer_seconds: phases.TRANSFER_SECONDS,
    route_seconds: phases.ROUTE_SECONDS,
    connections: phases.CONNECTIONS,
    cpus: os.cpus().length,
    node: process.version,
  };
  const references = {
    empty_nest: http.nest,
    raw_express: http.expressFull,
    raw_express_at: Object.fromEntries(http.expressAt),
  };
  writeSummary({
    settings,
    figures,
    routes: routeRows(http.routes, http.nest, http.expressAt),
    measurements: http.routes,
    references,
    failed: http.failed,
    rss: http.rss,
    scale,
    events,
  });
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
