'use strict';
// CPU per request (issue 28, part 1): user + system time of a process from /proc/<pid>/stat
// (utime and stime, in clock ticks) read at the start and the end of a phase, divided by the
// requests it served then. The API is the target's own pid; its worker's pid comes from /health,
// as rss.js finds it. A tick is 10 ms (CLK_TCK 100 on Linux), so a phase of thousands of requests
// gives a figure to a few hundredths of a millisecond.
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { workerPid } = require('./rss');

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 10;
  }
})();

/** CPU time (ms) `pid` has used so far, or null when it is gone. */
function cpuMs(pid) {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** A reading of one process: `used()` later gives the CPU ms it used since (null if it was restarted or gone). */
function since(pid) {
  const from = pid === null ? null : cpuMs(pid);
  return () => {
    const to = pid === null ? null : cpuMs(pid);
    return from === null || to === null ? null : to - from;
  };
}

/**
 * Starts a phase's reading of the API (`apiPid`) and, with `base`, of the worker it supervises.
 * `end(requests, idle)` gives each one's CPU ms per request; `idle` ({ api, worker } ms per
 * second, from `idleRate`) is taken off first, for what the phase runs beside its requests.
 */
async function phase(apiPid, base) {
  const api = since(apiPid);
  const worker = since(base ? await workerPid(base) : null);
  const began = performance.now();
  const per = (used, requests, idlePerSecond, seconds) =>
    used === null || !requests ? null : round((used - (idlePerSecond ?? 0) * seconds) / requests);
  return {
    end: (requests, idle = {}) => {
      const seconds = (performance.now() - began) / 1000;
      const [apiUsed, workerUsed] = [api(), worker()];
      // Gross beside net: a net figure at or below zero means the idle reading was not idle (a backlog still draining), not a free transfer.
      return {
        api: per(apiUsed, requests, idle.api, seconds),
        worker: per(workerUsed, requests, idle.worker, seconds),
        gross: { api: per(apiUsed, requests, 0, seconds), worker: per(workerUsed, requests, 0, seconds) },
        requests,
      };
    },
  };
}

/** CPU ms per second of each process with no load for `seconds` while `beside()` runs (it returns its stop function). */
async function idleRate(apiPid, base, seconds, beside) {
  const reading = await phase(apiPid, base);
  const stop = beside();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await stop();
  return reading.end(seconds);
}

const round = (ms) => Math.round(ms * 100) / 100;

module.exports = { cpuMs, phase, idleRate };
