'use strict';
// Resident memory of the API process and of the worker it supervises (issue 20: ≤ 256 MB each,
// the worker with every role), read from /proc/<pid>/status every BENCH_RSS_SAMPLE_MS (250) ms.
// The worker's pid comes from the API's /health (`worker.pid`; a restarted worker is followed).
// `mark(name)` starts a new segment; each segment keeps the peak of each process.
const { readFileSync } = require('node:fs');
const { health } = require('./client');

const INTERVAL_MS = Number(process.env.BENCH_RSS_SAMPLE_MS || 250);

function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

async function workerPid(base) {
  try {
    return (await health(base)).worker?.pid ?? null;
  } catch {
    return null;
  }
}

/** Samples until `stop()` (`peek()` reads the segments meanwhile), which resolves to { idle, <mark>… } each { api, worker } (peak MB); `idle` is before the first mark. */
function sampleRss(base, apiPid) {
  const segments = {};
  let current = (segments.idle = { api: null, worker: null });
  let worker = null;
  let lookups = 0;
  const peak = (was, now) => (now === null ? was : Math.max(was ?? 0, now));
  const sample = async () => {
    // The pid once, then again only when its /proc entry is gone (a restart).
    if (worker === null || rssMb(worker) === null) worker = lookups++ < 1000 ? await workerPid(base) : worker;
    current.api = peak(current.api, rssMb(apiPid));
    if (worker !== null) current.worker = peak(current.worker, rssMb(worker));
  };
  const timer = setInterval(() => void sample(), INTERVAL_MS);
  void sample();
  return {
    mark: (name) => {
      void sample();
      current = segments[name] = { api: null, worker: null };
      void sample();
    },
    /** The segments so far, after one more sample; sampling goes on. */
    peek: async () => {
      await sample();
      return segments;
    },
    stop: async () => {
      clearInterval(timer);
      await sample();
      return segments;
    },
  };
}

module.exports = { sampleRss, rssMb, workerPid };
