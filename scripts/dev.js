#!/usr/bin/env node
// `npm run dev`: what `npm start` runs, rebuilt and restarted on every change, with no extra
// dependency. `tsc --watch` compiles apps/ and libs/ into dist/ incrementally; after each compile
// that ends without errors, tsc-alias rewrites the @app/* imports of what changed, then the
// program is stopped (SIGTERM, as an orchestrator would: its worker and readers stop cleanly) and
// started again. A compile with errors keeps the running program. `node --watch` is not used: it
// would restart on the first file tsc writes, before the rest (and the alias rewrite) are there.
//
//   npm run dev                 # the API and its supervised worker (npm start)
//   npm run dev -- --api        # the API alone (npm run start:api)
//   npm run dev -- --worker     # a worker (npm run start:worker, roles from WORKER_ROLES)
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const ENTRIES = {
  '--all': 'dist/apps/api/src/main.js',
  '--api': 'dist/apps/api/src/api.main.js',
  '--worker': 'dist/apps/worker/src/main.js',
};
const flag = process.argv.slice(2).find((a) => a in ENTRIES) ?? '--all';
const unknown = process.argv.slice(2).filter((a) => !(a in ENTRIES));
if (unknown.length) {
  process.stderr.write(
    `unknown argument ${unknown.join(' ')}: use --api, --worker or nothing (the API and its worker)\n`,
  );
  process.exit(2);
}
const entry = join(ROOT, ENTRIES[flag]);

let app = null;
let stopping = false;

function stopApp() {
  const running = app;
  app = null;
  if (!running || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => running.kill('SIGKILL'), 20_000);
    running.once('exit', () => (clearTimeout(killer), resolve()));
    running.kill('SIGTERM');
  });
}

let restarting = Promise.resolve();
function restart() {
  restarting = restarting.then(async () => {
    await stopApp();
    if (stopping) return;
    const alias = spawnSync(join(BIN, 'tsc-alias'), ['-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    if (alias.status !== 0) return void process.stderr.write('[dev] tsc-alias failed; waiting for the next change\n');
    process.stdout.write(`[dev] starting ${ENTRIES[flag]}\n`);
    app = spawn(process.execPath, [entry], { cwd: ROOT, stdio: 'inherit', env: process.env });
    const started = app;
    started.once('exit', (code, signal) => {
      if (app === started && !stopping)
        process.stdout.write(`[dev] the program exited (${signal ?? code}); it starts again on the next change\n`);
    });
  });
}

// The dashboard is built by Vite, not tsc: once, if it is missing (`npm run build:dashboard` rebuilds it).
const scripts = require(join(ROOT, 'package.json')).scripts ?? {};
if (scripts['build:dashboard'] && !existsSync(join(ROOT, 'dist', 'dashboard'))) {
  spawnSync('npm', ['run', 'build:dashboard'], { cwd: ROOT, stdio: 'inherit' });
}

const tsc = spawn(join(BIN, 'tsc'), ['-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let pending = '';
tsc.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) {
    const found = /Found (\d+) errors?\. Watching for file changes/.exec(line);
    if (found && Number(found[1]) === 0) restart();
  }
});
tsc.once('exit', (code) => {
  if (!stopping) process.stderr.write(`[dev] tsc --watch exited (${code})\n`);
  shutdown(code ?? 1);
});

function shutdown(code) {
  if (stopping) return;
  stopping = true;
  tsc.kill('SIGTERM');
  void restarting.then(stopApp).then(() => process.exit(code));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
