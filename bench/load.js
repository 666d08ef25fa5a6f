'use strict';
// The two kinds of load. Full load: closed loop (autocannon), as fast as the target answers.
// Fixed rate: open loop, our own scheduler: request i is due at start + i/rate and leaves then
// whatever earlier requests are doing (keep-alive sockets, no cap that would make it wait), and its
// latency counts from when it was due, so a stalled server cannot hide its queue (no coordinated
// omission). autocannon's overallRate is not used for this: it lets each connection send its share
// at the top of every second, a burst that measures the burst rather than the rate.
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const autocannon = require('autocannon');
const { HEADERS } = require('./client');
const { percentile } = require('./support');

const DRAIN_MS = 30_000;

/**
 * Counts answers by kind and keeps the first few error bodies, so a broken request body shows.
 * A 503 `overloaded` is the API shedding load (issue 28): a fast answer, counted on its own and
 * not among the non-2xx that mean a broken measurement.
 */
function tally() {
  const t = { ok: 0, overloaded: 0, non2xx: 0, errors: 0, samples: [] };
  t.answer = (status, body) => {
    if (status >= 200 && status < 300) return void (t.ok += 1);
    if (status === 503 && String(body).includes('"overloaded"')) return void (t.overloaded += 1);
    t.non2xx += 1;
    if (t.samples.length < 3) t.samples.push(`${status} ${String(body).slice(0, 200)}`);
  };
  return t;
}

/** A request may add headers (`headers`, e.g. Idempotency-Key) to the usual ones. */
const encode = (r) => ({
  method: r.method,
  path: r.path,
  body: r.body === undefined ? undefined : JSON.stringify(r.body),
  ...(r.headers ? { headers: { ...HEADERS, ...r.headers } } : {}),
});

/**
 * Closed loop for `seconds`: `next(n)` gives the n-th request ({ method, path, body }). `rps` is
 * the rate of 2xx answers (autocannon's rate times their share): refusals are answered fast, and
 * a route that sheds must not look faster for it.
 */
function closedLoop({ base, seconds, connections, next }) {
  const t = tally();
  let n = 0;
  const requests = [
    { setupRequest: (req) => ({ ...req, ...encode(next(n++)) }), onResponse: (status, body) => t.answer(status, body) },
  ];
  return new Promise((resolve, reject) =>
    autocannon({ url: base, duration: seconds, connections, headers: HEADERS, requests }, (err, r) => {
      if (err) return reject(err);
      const answered = t.ok + t.overloaded + t.non2xx;
      const rps = Math.round(r.requests.average * (answered ? t.ok / answered : 1));
      resolve({
        rps,
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        ok: t.ok,
        overloaded: t.overloaded,
        non2xx: t.non2xx,
        errors: r.errors + r.timeouts,
        samples: t.samples,
      });
    }),
  );
}

function send(agent, base, request, onDone) {
  const { method, path, body, headers = HEADERS } = encode(request);
  const req = http.request(base + path, { method, agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => onDone(null, res.statusCode, Buffer.concat(chunks).toString('utf8')));
  });
  req.on('error', (err) => onDone(err));
  req.end(body);
}

/**
 * Open loop at `rate` requests/s for `seconds`. `onAnswer(status, body, at, due)` sees each answer
 * with its arrival time and the time it was due to leave (performance.now()), e.g. to note when a
 * transfer's response arrived. Answers still missing DRAIN_MS after the last departure count as errors.
 */
function openLoop({ base, seconds, rate, next, onAnswer = () => {} }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const t = tally();
  const latencies = [];
  const total = Math.max(1, Math.round(seconds * rate));
  const start = performance.now();
  let finished = 0;
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(deadline);
      agent.destroy();
      resolve(openLoopResult({ t, latencies, rate, finished, total, seconds: (performance.now() - start) / 1000 }));
    };
    const deadline = setTimeout(finish, seconds * 1000 + DRAIN_MS);
    const answered = (due) => (err, status, body) => {
      const at = performance.now();
      if (err) t.errors += 1;
      else {
        t.answer(status, body);
        latencies.push(at - due);
        onAnswer(status, body, at, due);
      }
      if (++finished === total) finish();
    };
    depart({ total, rate, start, send: (i, due) => send(agent, base, next(i), answered(due)) });
  });
}

/** Sends request i at start + i/rate, checking the clock every millisecond. */
function depart({ total, rate, start, send: sendOne }) {
  let sent = 0;
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
    for (; sent < due; sent++) sendOne(sent, start + (sent * 1000) / rate);
    if (sent < total) setTimeout(tick, 1);
  };
  tick();
}

function openLoopResult({ t, latencies, rate, finished, total, seconds }) {
  latencies.sort((a, b) => a - b);
  const p = (q) => round(percentile(latencies, q));
  return {
    rate,
    requests: finished,
    rps: Math.round(finished / seconds),
    p50: p(50),
    p99: p(99),
    ok: t.ok,
    overloaded: t.overloaded,
    non2xx: t.non2xx,
    errors: t.errors + (total - finished),
    samples: t.samples,
  };
}

const round = (ms) => Math.round(ms * 10) / 10;

module.exports = { closedLoop, openLoop };
