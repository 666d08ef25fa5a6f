'use strict';
// npm run bench:history (issue 26, "Done when"): what a request costs, and what the processes hold,
// as an organization's history grows. One run on `npm start` as the README runs it (history-service.js):
// 1. after BENCH_HISTORY_SIZES (0,10000,50000) settled sandbox payouts: RSS of the API and of its
//    worker, the first and second GET /ledger, a ledger as_of early in the log, a statement's first
//    page, an /events page and an account's /history (first call, then p50 of BENCH_HISTORY_READS),
//    each a page of 100 that is full at every size (history-world.js writes 60 payouts for it first);
// 2. at the largest size: one /events/stream?after_position=0&follow=false of the whole history
//    (events/s), then another organization's GET /accounts/{id} p99 while 10 such streams run;
// 3. payout p50 on one live account with BENCH_HISTORY_PENDING (0,1000,10000) pending payouts
//    (live payouts wait for the operator), the worker caught up before each measurement.
// It prints figures beside the targets and writes them to bench/results/history.json; nothing asserts.
const { performance } = require('node:perf_hooks');
const { percentile, report } = require('./support');
const { caughtUp } = require('./lag');
const { sampleRss } = require('./rss');
const { health: healthOf } = require('./client');
const { KEYS, ADMIN, startService, stopService, memoryMb, caller, generate, settled } = require('./history-service');
const { PAGE, PAGE_FILL, sandboxWorld, liveWorld } = require('./history-world');

const list = (name, fallback) => (process.env[name] || fallback).split(',').map(Number);
const SIZES = list('BENCH_HISTORY_SIZES', '0,10000,50000');
const PENDING = list('BENCH_HISTORY_PENDING', '0,1000,10000');
const READS = Number(process.env.BENCH_HISTORY_READS || 20);
const PAYOUT_SAMPLES = Number(process.env.BENCH_HISTORY_PAYOUTS || 200);
const STREAMS = Number(process.env.BENCH_HISTORY_STREAMS || 10);
const STREAM_SECONDS = Number(process.env.BENCH_HISTORY_STREAM_SECONDS || 60);
// The whole-history stream alone is cut after this long (at 50,000 payouts one ran past 7 minutes and the run never reached its RSS summary).
const ONE_STREAM_SECONDS = Number(process.env.BENCH_HISTORY_ONE_STREAM_SECONDS || 300);
const CATCH_UP_MS = 10 * 60_000;
const round = (ms) => Math.round(ms * 10) / 10;

/**
 * The first call's time, then the p50 of `READS` more, and the items the page held (`data`'s length). A 503 (a read model behind the log, e.g. while a restarted
 * worker catches up) is waited out and counted in `retried`, its time not measured; any other non-2xx stops the run.
 */
const retried = {};
async function timed(call, path, runs = READS) {
  const times = [];
  let items;
  for (let i = 0; i <= runs; i++) {
    const began = performance.now();
    const r = await call('GET', path);
    if (r.status === 503 && (retried[path] = (retried[path] ?? 0) + 1) < 100) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      i--;
      continue;
    }
    times.push(performance.now() - began);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    items ??= Array.isArray(r.body?.data) ? r.body.data.length : undefined;
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  return { first: round(times[0]), p50: round(percentile(rest, 50)), items };
}

async function readsAt(service, world, size, peaks) {
  const call = caller(service.base, KEYS.sandbox);
  const health = await healthOf(service.base);
  const head = health.log.head;
  const account = world.accounts[0];
  const ledgerFirst = await timed(call, '/ledger', 0);
  const ledgerSecond = await timed(call, '/ledger', 0);
  const [apiRss, workerRss] = [memoryMb(service.api.pid, 'VmRSS'), memoryMb(service.workerPid, 'VmRSS')];
  const asOf = await timed(call, `/ledger?as_of=position:${world.earlyPosition}`);
  // Pages of PAGE items, full at every size (history-world.js fills them before the first size): the same work each time.
  const statement = await timed(call, `/accounts/${account}/transactions?limit=${PAGE}`);
  const events = await timed(call, `/events?limit=${PAGE}&after_position=${Math.floor(head / 2)}`);
  const history = await timed(call, `/accounts/${account}/history?limit=${PAGE}`);
  return {
    size,
    head,
    api_rss_mb: apiRss,
    api_peak_mb: peaks.api,
    worker_rss_mb: workerRss,
    worker_peak_mb: peaks.worker,
    'worker restarts': health.worker?.restarts ?? null,
    'ledger 1st ms': ledgerFirst.first,
    'ledger 2nd ms': ledgerSecond.first,
    'as_of ms': asOf,
    'statement ms': statement,
    'events ms': events,
    'history ms': history,
    // What each page held (statement entries / events / account events): PAGE each, or the sizes did not read the same work.
    'page items': `${statement.items}/${events.items}/${history.items}`,
  };
}

/** Reads one whole-history stream; resolves to { events, seconds }, or what it had when `signal` aborted it. */
async function readStream(base, key, signal) {
  const began = performance.now();
  let events = 0;
  let failed = null;
  let tail = '';
  try {
    const res = await fetch(`${base}/events/stream?after_position=0&follow=false`, {
      headers: { authorization: `Bearer ${key}` },
      signal,
    });
    if (res.status !== 200) throw new Error(`/events/stream: ${res.status} ${await res.text()}`);
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      const text = tail + decoder.decode(chunk, { stream: true });
      const cut = text.lastIndexOf('\n');
      const lines = text.slice(0, cut + 1).split('\n');
      lines.forEach((line, i) => {
        // The stream's own end in error is not an event: it is kept, and the figures say the stream failed.
        if (line === 'event: error') failed = lines[i + 1]?.slice('data: '.length) ?? 'error';
        else if (line.startsWith('event: ') && line !== 'event: ready') events++;
      });
      tail = text.slice(cut + 1);
    }
    return { events, seconds: (performance.now() - began) / 1000, ended: !failed, failed };
  } catch (err) {
    if (signal?.aborted) return { events, seconds: (performance.now() - began) / 1000, ended: false, failed };
    throw err;
  }
}

/** One stream alone, then `STREAMS` at once while another organization reads its account one request after another. */
async function streams(service, world) {
  const one = await readStream(service.base, KEYS.sandbox, AbortSignal.timeout(ONE_STREAM_SECONDS * 1000));
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), STREAM_SECONDS * 1000);
  const running = Array.from({ length: STREAMS }, () => readStream(service.base, KEYS.sandbox, abort.signal));
  let done = false;
  const all = Promise.all(running).finally(() => (done = true));
  const other = caller(service.base, KEYS.other);
  const latencies = [];
  let failures = 0;
  while (!done) {
    const began = performance.now();
    const r = await other('GET', `/accounts/${world.otherAccount}`);
    latencies.push(performance.now() - began);
    if (r.status !== 200) failures++;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const results = await all;
  clearTimeout(timer);
  latencies.sort((a, b) => a - b);
  const health = await healthOf(service.base);
  return {
    'stream events': one.events,
    'stream failed': one.failed ?? results.find((r) => r.failed)?.failed ?? 'no',
    'stream s': round(one.seconds),
    'stream ended': one.ended ? 'yes' : one.failed ? 'no, it failed' : `no, cut after ${ONE_STREAM_SECONDS} s`,
    'stream events/s': Math.round(one.events / one.seconds),
    'streams at once': STREAMS,
    'of them ended': results.filter((r) => r.ended).length,
    'other org GET p50 ms': round(percentile(latencies, 50)),
    'other org GET p99 ms': round(percentile(latencies, 99)),
    'other org GETs': latencies.length,
    'other org non-200': failures,
    'worker restarts': health.worker?.restarts ?? null,
    'worker unresponsive kills': health.worker?.unresponsive_kills ?? null,
  };
}

/** Payout p50 on the live account, one request at a time, after the readers caught up with the pending ones. */
async function livePayouts(service, live) {
  const rows = [];
  let pending = 0;
  for (const target of PENDING) {
    if (target > pending) {
      await generate(service.base, KEYS.live, live.payout, target - pending, `pending-${target}`);
      pending = target;
    }
    if (!(await caughtUp(service.base, CATCH_UP_MS))) throw new Error('readers still behind');
    const call = caller(service.base, KEYS.live);
    const times = [];
    for (let i = 0; i < PAYOUT_SAMPLES; i++) {
      const began = performance.now();
      const r = await call('POST', '/transfer', live.payout(`sample-${target}-${i}`));
      times.push(performance.now() - began);
      if (r.status !== 201) throw new Error(`live payout: ${r.status} ${JSON.stringify(r.body)}`);
    }
    pending += PAYOUT_SAMPLES;
    times.sort((a, b) => a - b);
    rows.push({
      pending: target,
      payouts: PAYOUT_SAMPLES,
      p50_ms: round(percentile(times, 50)),
      p99_ms: round(percentile(times, 99)),
      api_rss_mb: memoryMb(service.api.pid, 'VmRSS'),
      worker_rss_mb: memoryMb(service.workerPid, 'VmRSS'),
    });
    console.log(`live payouts with ${target} pending: p50 ${rows[rows.length - 1].p50_ms} ms`);
  }
  return rows;
}

const flat = (row) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, v && typeof v === 'object' ? `${v.first} / ${v.p50}` : v]),
  );
const PAGE_READS = { 'statement ms': 'statement entries', 'events ms': 'events', 'history ms': 'account events' };

async function main() {
  const service = await startService();
  try {
    const world = await sandboxWorld(service.base);
    // Peak RSS of each process over each stretch of the run, sampled every BENCH_RSS_SAMPLE_MS (250) ms, following a restarted worker.
    const rss = sampleRss(service.base, service.api.pid);
    console.log(
      `service up (API pid ${service.api.pid}, worker pid ${service.workerPid}); sizes ${SIZES.join(', ')} settled payouts`,
    );
    const history = [];
    let done = 0;
    for (const size of SIZES) {
      const began = performance.now();
      rss.mark(`to ${size}`);
      if (size > done) await generate(service.base, KEYS.sandbox, world.payout, size - done, `settled-${size}`);
      done = Math.max(done, size);
      await settled(service.base, KEYS.sandbox, world.entity, CATCH_UP_MS);
      const generatedIn = (performance.now() - began) / 1000;
      await service.refreshWorker();
      const peaks = (await rss.peek())[`to ${size}`];
      history.push({ ...(await readsAt(service, world, size, peaks)), 'generated in s': Math.round(generatedIn) });
      // Each size as soon as it is measured: a run stopped before the largest keeps what it had.
      console.log(
        `measured at ${size} settled payouts (${Math.round(generatedIn)} s to reach it): ${JSON.stringify(history[history.length - 1])}`,
      );
    }
    console.log(
      `\n== after N settled payouts, beside the world's ${PAGE_FILL} on the first account (reads: first / p50 of the next ${READS}, ms; pages of ${PAGE})\n`,
    );
    report('history', history.map(flat), { sizes: SIZES, reads: READS, retried_503: retried });
    if (Object.keys(retried).length) console.log(`reads answered 503 first, then retried: ${JSON.stringify(retried)}`);
    rss.mark('streams');
    const stream = await streams(service, world);
    console.log(`\n== /events/stream of the whole history at ${done} settled payouts\n`);
    report('history-streams', [stream]);
    rss.mark('pending');
    const live = await liveWorld(service.base, ADMIN);
    const payouts = await livePayouts(service, live);
    console.log('\n== payouts on one live account with N pending\n');
    report('history-pending', payouts);
    const segments = await rss.stop();
    console.log('\n== peak RSS by stretch of the run (MB)\n');
    report(
      'history-rss',
      Object.entries(segments).map(([stretch, p]) => ({ stretch, api_peak_mb: p.api, worker_peak_mb: p.worker })),
    );
    summary(history, stream, payouts, segments);
  } finally {
    await stopService(service);
  }
}

/** Each figure beside its target (issue 26). */
function summary(history, stream, payouts, segments) {
  const [small, large] = [history[0], history[history.length - 1]];
  const lines = [];
  const ratio = (a, b) => `${Math.round((a / b) * 100)}%`;
  const [p0, pN] = [payouts[0], payouts[payouts.length - 1]];
  lines.push(
    `payout p50 with ${pN.pending} pending / with ${p0.pending}: ${pN.p50_ms} / ${p0.p50_ms} ms = ${ratio(pN.p50_ms, p0.p50_ms)} (target ≤ 120%)`,
  );
  const peak = (k) => Math.max(...Object.values(segments).map((p) => p[k] ?? 0));
  const restarts = history[history.length - 1]['worker restarts'];
  lines.push(
    `peak RSS through the whole run: API ${peak('api')} MB, worker ${peak('worker')} MB (target ≤ 256 MB each); worker restarts ${restarts} while the history was written`,
  );
  for (const k of ['as_of ms', 'statement ms', 'events ms', 'history ms']) {
    const [a, b] = [large[k].items, small[k].items];
    const work = !PAGE_READS[k]
      ? ''
      : a === PAGE && b === PAGE
        ? `, a page of ${PAGE} ${PAGE_READS[k]} at both`
        : `, NOT THE SAME WORK: ${a} and ${b} ${PAGE_READS[k]} (pages of ${PAGE})`;
    lines.push(
      `${k.replace(' ms', '')} at ${large.size} / at ${small.size}: first ${large[k].first} / ${small[k].first} ms, p50 ${large[k].p50} / ${small[k].p50} ms = ${ratio(large[k].p50, small[k].p50)}${work} (target ≤ 150%, < 50 ms)`,
    );
  }
  for (const k of ['ledger 1st ms', 'ledger 2nd ms'])
    lines.push(
      `${k.replace(' ms', '')} at ${large.size} / at ${small.size}: ${large[k]} / ${small[k]} ms = ${ratio(large[k], small[k])} (target ≤ 150%, < 50 ms)`,
    );
  lines.push(
    `one whole-history stream: ${stream['stream events']} events in ${stream['stream s']} s, ${stream['stream events/s']} events/s${stream['stream ended'] === 'yes' ? '' : ` (${stream['stream ended']})`}${stream['stream failed'] === 'no' ? '' : `; A STREAM FAILED: ${stream['stream failed']}`}`,
  );
  lines.push(
    `another organization's GET /accounts/{id} p99 while ${stream['streams at once']} streams ran: ${stream['other org GET p99 ms']} ms (target ≤ 100 ms)`,
  );
  console.log('\n== summary\n\n' + lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
