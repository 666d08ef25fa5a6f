'use strict';
// Starting a benchmark target in its own child process, and plain JSON calls to it.
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const KEY = 'sk_test_benchbenchbenchbenchbenchbench';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
// GET /health gives its details (log positions, the worker's pid) to the operator only: every target runs with this token.
const ADMIN_TOKEN = process.env.BENCH_ADMIN_TOKEN || 'op_' + 'b'.repeat(40);
const OPERATOR = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The API's /health as the operator reads it: `log` (head, projected, published), `worker` (pid, restarts) under npm start. */
const health = async (base) => (await fetch(`${base}/health`, { headers: OPERATOR })).json();

/** The node flags of `npm start` (the heap limits): the API runs under them, and its worker inherits them. */
const startFlags = () =>
  require('../package.json')
    .scripts.start.split(/\s+/)
    .filter((a) => a.startsWith('--'));

/**
 * Runs `node server.js <mode> <port>` (the API under `npm start`'s node flags) and resolves once it
 * prints READY. An API without DATA_DIR gets a temporary one, removed by `stop` (a run writes 0.5-1.5 GB).
 */
function start(mode, port, env = {}) {
  const scratch =
    mode === 'api' && !env.DATA_DIR && !process.env.DATA_DIR ? mkdtempSync(join(tmpdir(), 'bench-')) : null;
  const child = spawn(
    process.execPath,
    [...(mode === 'api' ? startFlags() : []), join(__dirname, 'server.js'), mode, String(port)],
    {
      // The service resolves its relative defaults (datasets/fx-rates.json) from the repository root.
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        PAYMENTS_BOOTSTRAP_API_KEYS: KEY,
        PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN,
        ...(scratch ? { DATA_DIR: scratch } : {}),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (scratch) child.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('READY') && resolve(child));
    child.on('exit', (code) => reject(new Error(`${mode} exited with ${code}`)));
  });
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * One call, as a careful client makes it: a 503 `overloaded` (the API shedding load, e.g. just
 * after a full-load phase) is retried after its Retry-After, up to 30 times; it wrote nothing.
 */
async function call(base, method, path, body) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(base + path, { method, headers: HEADERS, body: body && JSON.stringify(body) });
    const text = await res.text();
    const answer = { status: res.status, body: text ? JSON.parse(text) : undefined };
    if (res.status !== 503 || answer.body?.code !== 'overloaded' || attempt >= 30) return answer;
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') || 1) * 1000));
  }
}

/** A call that must answer `expected`; anything else stops the run with the answer. */
async function must(base, method, path, body, expected = [200, 201]) {
  const r = await call(base, method, path, body);
  if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

module.exports = { KEY, HEADERS, ADMIN_TOKEN, OPERATOR, health, start, stop, call, must };
