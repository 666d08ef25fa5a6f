'use strict';
// Projection lag under load, from outside: GET /health every BENCH_LAG_SAMPLE_MS (20) ms gives
// { head, projected, published } log positions. For each position p written during the phase,
// lag = (time of the first sample whose `projected` ≥ p) − (time of the first sample whose `head`
// ≥ p). Resolution is the sampling interval plus one /health round trip; a position projected by
// the same sample that first saw it counts 0. The same for `published` (the bus feed the webhook
// router reads).
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { percentile } = require('./support');
const { OPERATOR } = require('./client');

const INTERVAL_MS = Number(process.env.BENCH_LAG_SAMPLE_MS || 20);

function health(base, agent) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/health`, { agent, headers: OPERATOR }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).log));
      })
      .on('error', reject);
  });
}

/**
 * Starts sampling. `settle()` (when the load is over) notes the head, keeps sampling until the
 * readers reach it (at most 30 s) and resolves to { samples: [{ at, head, projected, published }], to }.
 */
function sampleLog(base) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const began = performance.now();
      const log = await health(base, agent);
      samples.push({ at: performance.now(), ...log });
      await new Promise((r) => setTimeout(r, Math.max(0, INTERVAL_MS - (performance.now() - began))));
    }
  })();
  const last = () => samples[samples.length - 1] ?? {};
  return {
    settle: async () => {
      const to = last().head;
      const until = Date.now() + 30_000;
      while (!(last().projected >= to && last().published >= to) && Date.now() < until)
        await new Promise((r) => setTimeout(r, INTERVAL_MS));
      running = false;
      await loop;
      agent.destroy();
      return { samples, to };
    },
  };
}

/** Time of the first sample at which `field` reached each position in (from, to]. */
function firstSeen(samples, field, from, to) {
  const seen = new Map();
  let next = from + 1;
  for (const s of samples) for (; next <= Math.min(to, s[field] ?? -1); next++) seen.set(next, s.at);
  return seen;
}

/** Lag p50/p99 (ms) of `field` behind `head` for the positions written while sampling, up to `to`; `behind`: never reached, counted as infinitely late. */
function lagOf({ samples, to }, field) {
  if (samples.length < 2) return { positions: 0, p50: NaN, p99: NaN, behind: 0 };
  const from = samples[0].head;
  const written = firstSeen(samples, 'head', from, to);
  const reached = firstSeen(samples, field, from, to);
  const lags = [...written].map(([p, at]) => (reached.get(p) ?? Infinity) - at);
  lags.sort((a, b) => a - b);
  const behind = [...written.keys()].filter((p) => !reached.has(p)).length;
  return {
    positions: written.size,
    p50: Math.round(percentile(lags, 50)),
    p99: Math.round(percentile(lags, 99)),
    behind,
  };
}

/** Waits until the projector and publisher have reached the head; false if still behind after `timeoutMs`. */
async function caughtUp(base, timeoutMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const until = Date.now() + timeoutMs;
  try {
    for (;;) {
      const log = await health(base, agent);
      if (log.projected >= log.head && log.published >= log.head) return true;
      if (Date.now() > until) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    agent.destroy();
  }
}

module.exports = { INTERVAL_MS, sampleLog, lagOf, caughtUp };
