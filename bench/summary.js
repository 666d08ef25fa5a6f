'use strict';
// The printed tables and bench/results/summary.json: each figure beside its reference from the
// same run and its target (issue 14). Targets are printed, never asserted.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;
const ok = (pass) => (pass ? 'yes' : 'NO');

function table(rows) {
  const columns = Object.keys(rows[0] ?? {});
  const width = (c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells) => cells.map((v, i) => String(v).padEnd(width(columns[i]))).join(' | ');
  console.log(line(columns));
  console.log(columns.map((c) => '-'.repeat(width(c))).join('-|-'));
  for (const r of rows) console.log(line(columns.map((c) => r[c])));
}

/**
 * One row per measured route: full-load rate against the empty NestJS route, latency at 50% beside
 * raw Express's, the 503 `overloaded` refusals of each phase (load shed, not a broken measurement),
 * and the API's and worker's CPU per request over full load and its catch-up (cpu.js).
 */
function routeRows(routes, nest, express) {
  return routes.map((r) => ({
    route: r.name,
    'full req/s': r.full.rps,
    'of empty Nest': pct(r.full.rps, nest.rps),
    '50% rate': r.rate,
    'p50 ms': r.half.p50,
    'p99 ms': r.half.p99,
    'Express p99 ms': express.get(r.name)?.p99 ?? 'n/a',
    'refused full/50%': `${r.full.overloaded} / ${r.half.overloaded}`,
    'non-2xx': r.full.non2xx + r.half.non2xx,
    errors: r.full.errors + r.half.errors,
    'CPU ms API/worker': `${r.cpu?.full.api ?? '?'} / ${r.cpu?.full.worker ?? '?'}`,
  }));
}

const ms = (v) => (v === null || v === undefined ? 'n/a' : `${v.toFixed(2)} ms`);
const perSecond = (v) => (v === null || v === undefined ? 'n/a' : `${Math.round(v)} ms/s`);

/** The CPU budget printed under the route table: each reference route's CPU per request, and the transfer's per phase. */
function cpuLines(transfer, nest, express) {
  const { full, half } = transfer.cpu;
  return [
    `  empty NestJS POST: ${ms(nest.cpuMs)} per request; raw Express POST: ${ms(express.cpuMs)} (full load, warm-up included)`,
    `  ${transfer.name} full load (${full.requests} transfers, warm-up and the backlog's catch-up included): API ${ms(full.api)}, worker ${ms(full.worker)} per transfer`,
    `  ${transfer.name} 50% (${half.requests} transfers, until every webhook arrived): API ${ms(half.api)}, worker ${ms(half.worker)} per transfer, net of /health sampled every 20 ms (with no load it costs the API ${perSecond(transfer.cpu.idle.api)}, the worker ${perSecond(transfer.cpu.idle.worker)})`,
  ];
}

/** `API CPU per transfer` and `worker CPU per transfer` (issue 28): the 50% phase's figure, the full load's beside it. */
function cpuFigures(transfer, nest) {
  const { full, half } = transfer.cpu;
  return [
    ['API', 'api'],
    ['worker', 'worker'],
  ].map(([who, key]) => ({
    figure: `${who} CPU per transfer`,
    value: ms(half[key]),
    reference: `at 50% (net of /health sampling; gross ${ms(half.gross?.[key] ?? null)}); full load ${ms(full[key])}; empty NestJS POST ${ms(nest.cpuMs)} per request`,
    target: '≤ 1.0 ms',
    // A net figure at or below zero is a failed measurement (the idle reading caught a draining backlog), never a pass.
    ok: ok(half[key] !== null && half[key] > 0 && half[key] <= 1.0),
  }));
}

/** The slowest of the other write routes against the empty route (issue 14: none below 20%). */
function slowestRoute(others, nest) {
  if (!others.length) return [];
  const worst = others.reduce((a, b) => (b.full.rps < a.full.rps ? b : a));
  return [
    {
      figure: `slowest other write route full-load rate (of ${others.length})`,
      value: `${worst.full.rps} req/s = ${pct(worst.full.rps, nest.rps)}`,
      reference: worst.name,
      target: '≥ 20%',
      ok: ok(worst.full.rps >= 0.2 * nest.rps),
    },
  ];
}

function httpFigures(routes, nest, express) {
  const [transfer, ...others] = routes;
  const expressP99 = express.get(transfer.name)?.p99;
  const { projected, published } = transfer.lag;
  const hook = transfer.webhook;
  return [
    {
      figure: 'POST /transfer full-load rate',
      value: `${transfer.full.rps} req/s = ${pct(transfer.full.rps, nest.rps)}`,
      reference: `empty NestJS POST ${nest.rps} req/s; ${transfer.full.overloaded} refused 503`,
      target: '≥ 35%',
      ok: ok(transfer.full.rps >= 0.35 * nest.rps),
    },
    {
      figure: 'POST /transfer sustained rate',
      value: `${transfer.sustained} req/s = ${pct(transfer.sustained, nest.rps)}`,
      reference: `full load + ${transfer.backlogSeconds.toFixed(1)} s for the worker to catch up`,
      target: '≥ 25%',
      ok: ok(transfer.sustained >= 0.25 * nest.rps),
    },
    {
      figure: `POST /transfer p50/p99 at 50% (${transfer.rate}/s, of ${transfer.halfOf === 'closed' ? 'full-load' : 'sustained'} rate)`,
      value: `${transfer.half.p50} / ${transfer.half.p99} ms, ${transfer.half.overloaded} refused`,
      reference: `raw Express p99 ${expressP99 ?? 'n/a'} ms at that rate`,
      target: 'p99 ≤ 25 ms, none refused',
      ok: ok(transfer.half.p99 <= 25 && !transfer.half.overloaded),
    },
    {
      figure: 'projection lag p50/p99 at 50%',
      value: `${projected.p50} / ${projected.p99} ms`,
      reference: `${projected.positions} positions, ${projected.behind} never projected`,
      target: 'p99 ≤ 100 ms',
      ok: ok(projected.p99 <= 100 && !projected.behind),
    },
    {
      figure: 'publish lag p50/p99 at 50%',
      value: `${published.p50} / ${published.p99} ms`,
      reference: `${published.positions} positions, ${published.behind} never published`,
      target: '-',
      ok: '-',
    },
    {
      figure: 'commit → webhook receiver p50/p99',
      value: `${hook.p50} / ${hook.p99} ms`,
      reference: `from request ${hook.p99_from_request} ms; ${hook.delivered}/${hook.transfers} delivered`,
      target: 'p99 ≤ 250 ms',
      ok: ok(hook.p99 <= 250 && !hook.missing),
    },
    ...slowestRoute(others, nest),
  ];
}

/** Peak RSS of the API and of its worker (every role) in each phase of the run (rss.js). */
function rssFigures(rss) {
  if (!rss) return [];
  const peak = (who) => Math.max(...Object.values(rss).map((s) => s[who] ?? 0));
  const phases = (who) =>
    Object.entries(rss)
      .map(([name, s]) => `${name} ${s[who] ?? '?'}`)
      .join(', ');
  return ['api', 'worker'].map((who) => ({
    figure: `${who === 'api' ? 'API' : 'worker (every role)'} peak RSS`,
    value: `${peak(who)} MB`,
    reference: phases(who),
    target: '≤ 256 MB',
    ok: ok(peak(who) > 0 && peak(who) <= 256),
  }));
}

/** scale.js's figures, when it ran: the slowest list query, and transfers with the smallest and largest log. */
function scaleFigures(scale) {
  if (!scale) return [];
  const rows = [];
  if (scale.lists?.length) {
    const worst = scale.lists.reduce((a, b) => (Number(b.p99_ms) > Number(a.p99_ms) ? b : a));
    rows.push({
      figure: `slowest list query p99 (${scale.documents} documents)`,
      value: `${worst.p99_ms} ms`,
      reference: `${worst.query}, ${worst.page} page`,
      target: '≤ 20 ms',
      ok: ok(Number(worst.p99_ms) <= 20),
    });
  }
  if (scale.stored?.length) {
    const [small, large] = [scale.stored[0], scale.stored[scale.stored.length - 1]];
    rows.push({
      figure: `transfer p50 with ${large.stored_events} stored events`,
      value: `${large.p50_ms} ms = ${pct(large.p50_ms, small.p50_ms)}`,
      reference: `${small.p50_ms} ms with ${small.stored_events}`,
      target: '≤ 120%',
      ok: ok(large.p50_ms <= 1.2 * small.p50_ms),
    });
    rows.push({
      figure: `API peak RSS with ${large.stored_events} stored events`,
      value: `${large.peak_rss_mb} MB`,
      reference: `${small.peak_rss_mb} MB with ${small.stored_events}`,
      target: '≤ 512 MB',
      ok: ok(large.peak_rss_mb <= 512),
    });
    if (large.readers_peak_rss_mb !== undefined) {
      rows.push({
        figure: `worker peak RSS with ${large.stored_events} stored events`,
        value: `${large.readers_peak_rss_mb} MB`,
        reference: `${small.readers_peak_rss_mb} MB with ${small.stored_events}`,
        target: '≤ 512 MB',
        ok: ok(large.readers_peak_rss_mb <= 512),
      });
    }
  }
  return rows;
}

function writeSummary(data) {
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  const file = join(__dirname, 'results', 'summary.json');
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...data }, null, 2));
  console.log(`\nwritten: ${file}`);
}

module.exports = { table, routeRows, cpuLines, httpFigures, cpuFigures, rssFigures, scaleFigures, writeSummary };
