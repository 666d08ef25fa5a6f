'use strict';
// The service of bench:history, run as `npm start` runs it after its build: the root package.json's
// `start` command (the API and the worker it supervises, with the flags that script sets), on
// SQLite in a fresh DATA_DIR. The rate limit and the shedding on loop delay are off so the history is
// written as fast as the two processes take it (RATE_LIMIT_PER_SECOND=0, MAX_EVENT_LOOP_DELAY_MS=0); three bootstrap keys, each its own organization.
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { caughtUp } = require('./lag');
const { ADMIN_TOKEN, health } = require('./client');

const ROOT = join(__dirname, '..');
const KEYS = {
  sandbox: 'sk_test_histhisthisthisthisthisthisthist',
  live: 'sk_live_histlivehistlivehistlivehistlive',
  other: 'sk_test_otherotherotherotherotherotherot',
};
const ADMIN = ADMIN_TOKEN;
const PORT = Number(process.env.BENCH_HISTORY_PORT || 4120);
const CONNECTIONS = Number(process.env.BENCH_HISTORY_CONNECTIONS || 16);

const memoryMb = (pid, field) => {
  try {
    return Math.round(
      Number(
        /(\d+) kB/.exec(
          readFileSync(`/proc/${pid}/status`, 'utf8')
            .split('\n')
            .find((l) => l.startsWith(field)),
        )[1],
      ) / 1024,
    );
  } catch {
    return null;
  }
};

/**
 * `npm start` without its build (done once before): the command of the `start` script, node's
 * flags included; BENCH_DIST runs a build of its own in place of dist/ (as the other scripts).
 */
function startCommand() {
  const [command, ...args] = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node`);
  return args.map((a) =>
    process.env.BENCH_DIST && a.startsWith('dist/') ? join(process.env.BENCH_DIST, a.slice('dist/'.length)) : a,
  );
}

async function startService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-history-'));
  const env = {
    ...process.env,
    PORT: String(PORT),
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_SECOND: '0',
    // Nor shed on event-loop delay (issue 28's back-pressure): the closed loop keeps the loop busy by design, and on a loaded machine its payouts were refused 503 overloaded.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    PAYMENTS_BOOTSTRAP_API_KEYS: Object.values(KEYS).join(','),
    PAYMENTS_ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  };
  const api = spawn(process.execPath, startCommand(), { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => api.once('exit', resolve));
  const base = `http://127.0.0.1:${PORT}`;
  const service = { api, exited, base, dataDir, workerPid: null };
  service.refreshWorker = async () => {
    service.workerPid = (await health(base)).worker?.pid ?? null;
  };
  for (const until = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (api.exitCode !== null) throw new Error(`npm start exited with ${api.exitCode}`);
    if (Date.now() > until) throw new Error('npm start did not answer within 120 s');
    const answer = await health(base).catch(() => null);
    if (answer?.worker?.state === 'running') break;
  }
  await service.refreshWorker();
  return service;
}

async function stopService(service) {
  if (service.api.exitCode === null) {
    service.api.kill('SIGTERM');
    await service.exited;
  }
  rmSync(service.dataDir, { recursive: true, force: true });
}

/** JSON calls with one key. */
const caller =
  (base, key, extra = {}) =>
  async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

/** `count` payouts closed loop on CONNECTIONS connections (`payout(reference)` gives a body); every answer must be 201. */
async function generate(base, key, payout, count, prefix) {
  let n = 0;
  const samples = [];
  let failed = 0;
  const requests = [
    {
      method: 'POST',
      path: '/transfer',
      setupRequest: (req) => ({ ...req, body: JSON.stringify(payout(`${prefix}-${n++}`)) }),
      onResponse: (status, body) => {
        if (status === 201) return;
        failed++;
        if (samples.length < 3) samples.push(`${status} ${String(body).slice(0, 200)}`);
      },
    },
  ];
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const r = await new Promise((resolve, reject) =>
    autocannon(
      { url: base, amount: count, connections: Math.min(CONNECTIONS, count), timeout: 60, headers, requests },
      (e, res) => (e ? reject(e) : resolve(res)),
    ),
  );
  if (failed || r.errors || r.timeouts)
    throw new Error(
      `payouts ${prefix}: ${failed} not 201, ${r.errors} errors, ${r.timeouts} timeouts: ${samples.join('; ')}`,
    );
  return r;
}

/** The readers at the head and no sandbox payout of `entity` left to settle (the simulator moves each within about 2 s). */
async function settled(base, key, entity, timeoutMs) {
  const call = caller(base, key);
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (!(await caughtUp(base, timeoutMs))) throw new Error('readers still behind');
    const open = await Promise.all(
      ['pending', 'processing'].map((s) => call('GET', `/transfers?entity_id=${entity}&status=${s}&limit=1`)),
    );
    if (open.every((r) => r.status === 200 && r.body.data.length === 0)) return;
    if (Date.now() > until) throw new Error(`payouts still unsettled after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

module.exports = { KEYS, ADMIN, PORT, memoryMb, startService, stopService, caller, generate, settled };
