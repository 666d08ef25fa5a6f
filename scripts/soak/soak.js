#!/usr/bin/env node
'use strict';
/**
 * `npm run soak` (issue 23): `npm start`'s entry under a mixed workload, killed with SIGKILL
 * (the API, or its worker) at moments drawn from a seeded schedule and started again on the same
 * DATA_DIR, then held to the invariants in checks.js. Exits 1 naming the first violation and the
 * seed. Details: docs/soak.md.
 *
 *   SOAK_SECONDS   how long the workload runs under faults (default 120); the run goes on until
 *                  at least SOAK_MIN_KILLS kills were made (default 20)
 *   SOAK_SEED      the seed (default: random, printed); the same seed gives the same operations,
 *                  amounts, references and fault schedule
 *   SOAK_DIST      the built apps (default ./dist; built with `npm run build` when missing, or
 *                  with tsc into that directory when it is another one)
 *   SOAK_CLIENTS   concurrent clients (default 4)
 *   SOAK_DATA_DIR  DATA_DIR to use (default a fresh temporary directory, removed after a pass)
 *   SOAK_REPORT    also write the summary as JSON to this file
 */
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { Prng } = require('./prng');
const { Server, alive, sleep } = require('./server');
const { Client, newStats } = require('./client');
const { Receiver } = require('./receiver');
const { Workload, newJournal } = require('./workload');
const checks = require('./checks');

const ROOT = resolve(__dirname, '..', '..');

// A SOAK_DIST outside the repository still finds its dependencies: the server's processes get
// NODE_PATH, and so does this one, which loads the worker's event table from the dist under test.
const NODE_MODULES = join(ROOT, 'node_modules');
if (!(process.env.NODE_PATH || '').split(':').includes(NODE_MODULES)) {
  process.env.NODE_PATH = [NODE_MODULES, process.env.NODE_PATH].filter(Boolean).join(':');
  require('node:module').Module._initPaths();
}

function config(env = process.env) {
  const int = (name, fallback, min = 0) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
    return n;
  };
  const seed =
    env.SOAK_SEED !== undefined && env.SOAK_SEED !== '' ? env.SOAK_SEED : String(randomBytes(4).readUInt32BE(0));
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(seed)) throw new Error('SOAK_SEED must be 1-64 letters, digits, - or _');
  return {
    seconds: int('SOAK_SECONDS', 120, 1),
    minKills: int('SOAK_MIN_KILLS', 20, 0),
    clients: int('SOAK_CLIENTS', 4, 1),
    seed,
    dist: resolve(ROOT, env.SOAK_DIST || 'dist'),
    dataDir: env.SOAK_DATA_DIR ? resolve(env.SOAK_DATA_DIR) : null,
    report: env.SOAK_REPORT ? resolve(env.SOAK_REPORT) : null,
  };
}

/** The dist under test; built when missing (`npm run build` for ./dist, tsc into any other directory). */
function ensureBuilt(dist) {
  const entries = ['apps/api/src/main.js', 'apps/worker/src/main.js', 'apps/replay/src/main.js'];
  if (entries.every((e) => existsSync(join(dist, e)))) return;
  process.stdout.write(`soak: ${dist} has no built apps; building\n`);
  const steps =
    dist === join(ROOT, 'dist')
      ? [['npm', ['run', 'build']]]
      : [
          ['npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', dist]],
          ['npx', ['tsc-alias', '-p', 'tsconfig.build.json', '--outDir', dist]],
        ];
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
  }
}

function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

/**
 * The fault schedule: how long to wait after the server is whole again, and what to do then.
 * Drawn from its own stream, so it is the same for a seed whatever the workload did. The mean
 * gap is sized so that about one fault falls every six seconds, at least `minKills` per run.
 */
class FaultSchedule {
  constructor(prng, seconds, minKills) {
    this.prng = prng;
    const faults = Math.max(minKills, Math.ceil(seconds / 6));
    // A recovery takes about 3 s (an API start, or the worker's 1 s backoff and its start).
    this.meanGapMs = Math.max(300, (seconds * 1000) / faults - 3_000);
  }

  next() {
    const gapMs = Math.round(this.prng.next() * 2 * this.meanGapMs);
    const kind = this.prng.weighted({
      'kill-api': 45,
      'kill-worker': 45,
      'stop-worker': 10,
    });
    return { gapMs, kind };
  }
}

async function main() {
  const cfg = config();
  const started = Date.now();
  const violations = [];
  const violation = (what) => {
    const at = ((Date.now() - started) / 1000).toFixed(1);
    violations.push({ at, what });
    process.stdout.write(`soak: VIOLATION at ${at} s: ${what}\n`);
  };
  process.stdout.write(
    `soak: seed ${cfg.seed} (reproduce with SOAK_SEED=${cfg.seed}), ${cfg.seconds} s, ${cfg.clients} clients, at least ${cfg.minKills} kills\n`,
  );
  ensureBuilt(cfg.dist);

  const work = mkdtempSync(join(tmpdir(), `soak-${cfg.seed}-`));
  const dataDir = cfg.dataDir || join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(work, 'server.log');
  const root = new Prng(`soak:${cfg.seed}`);
  const tag = `${cfg.seed}-${Date.now().toString(36)}`;
  const apiKey = `sk_test_soak${root.fork('key').digits(24)}`;
  const receiver = new Receiver({
    tlsDir: join(ROOT, 'test/fixtures/tls'),
    seed: cfg.seed,
    failFirstAttempts: 0.03,
  });
  await receiver.start();
  const port = await freePort();
  const server = new Server({
    entry: join(cfg.dist, 'apps/api/src/main.js'),
    port,
    logFile,
    onViolation: violation,
    env: {
      NODE_PATH: process.env.NODE_PATH,
      NODE_EXTRA_CA_CERTS: join(ROOT, 'test/fixtures/tls/ca.crt'),
      DATA_DIR: dataDir,
      PAYMENTS_BOOTSTRAP_API_KEYS: apiKey,
      // /health's details (the worker's state, which the soak waits on) are behind the operator token.
      PAYMENTS_ADMIN_TOKEN: Buffer.from(root.fork('admin-token').digits(32)).toString('hex'),
      PAYMENTS_MASTER_KEY: Buffer.from(root.fork('master-key').digits(32)).toString('base64'),
      EVENTSTORE_URL: '',
      MONGO_URL: '',
      KAFKA_BROKERS: '',
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      SANDBOX_AUTO_ADVANCE: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,250,500,1000,2000,4000,8000,15000,30000,30000,30000',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_SCHEDULER_INTERVAL_MS: '100',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      CARD_CREATION_LIMIT_PER_HOUR: '100000',
      // A key left running by a killed API is taken over after 5 s rather than 30.
      IDEMPOTENCY_LEASE_SECONDS: '5',
      // A SIGSTOPped worker is replaced after 3 s rather than 10.
      WORKER_HEARTBEAT_TIMEOUT_MS: '3000',
    },
  });
  const cleanup = () => server.killNow();
  process.on('exit', cleanup);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

  const stats = newStats();
  const client = new Client({
    url: server.url,
    apiKey,
    stats,
    onViolation: violation,
  });
  const journal = newJournal();
  const workload = new Workload({
    prng: root.fork('workload'),
    client,
    receiver,
    journal,
    onViolation: violation,
    tag,
  });
  const faults = { 'kill-api': 0, 'kill-worker': 0, 'stop-worker': 0 };
  /** Per fault kind, how long the server took to be whole again (API answering, worker running), in ms. */
  const recoveries = { 'kill-api': [], 'kill-worker': [], 'stop-worker': [] };
  const phases = {};
  let phaseStart = Date.now();
  const phase = (name) => {
    phases[name] = Math.round((Date.now() - phaseStart) / 100) / 10;
    phaseStart = Date.now();
  };
  const summary = {
    seed: cfg.seed,
    seconds: cfg.seconds,
    clients: cfg.clients,
    data_dir: dataDir,
    log: logFile,
  };

  try {
    await server.start();
    const setupEntities = root.fork('setup-size').int(3, 5);
    await workload.setup(setupEntities);
    phase('setup');
    process.stdout.write(
      `soak: setup done (${workload.entities.length} entities, ${journal.accounts.size} accounts, ${journal.webhooks.size} webhooks) in ${((Date.now() - started) / 1000).toFixed(1)} s; workload and faults start\n`,
    );

    // ── the workload under faults ─────────────────────────────────────────────────────────────
    const loadStarted = Date.now();
    let running = true;
    const clients = Array.from({ length: cfg.clients }, (_, i) => workload.runClient(i, () => running));
    const schedule = new FaultSchedule(root.fork('faults'), cfg.seconds, cfg.minKills);
    const kills = () => faults['kill-api'] + faults['kill-worker'];
    let lastReport = Date.now();
    while (Date.now() - loadStarted < cfg.seconds * 1000 || kills() < cfg.minKills) {
      const { gapMs, kind } = schedule.next();
      await sleep(gapMs);
      const t0 = Date.now();
      await inject(kind, server, violation);
      faults[kind] += 1;
      recoveries[kind].push(Date.now() - t0);
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        process.stdout.write(
          `soak: ${((Date.now() - loadStarted) / 1000).toFixed(0)} s, faults ${JSON.stringify(faults)}, requests ${stats.requests}, deliveries ${receiver.delivered}, violations ${violations.length}\n`,
        );
      }
    }
    running = false;
    await Promise.all(clients);
    summary.workload_seconds = Math.round((Date.now() - loadStarted) / 100) / 10;
    phase('workload');
    process.stdout.write(
      `soak: workload over after ${summary.workload_seconds} s: faults ${JSON.stringify(faults)}; a last kill -9 and restart, then the checks\n`,
    );

    // ── the end: a last kill, a restart, the worker caught up ─────────────────────────────────
    await server.kill9();
    faults['kill-api'] += 1;
    await server.start();
    const catchUpMs = Math.max(120_000, cfg.seconds * 1000);
    phase('last_restart');
    summary.log_at_end = await checks.waitCaughtUp(server, catchUpMs);
    phase('catch_up');
    await checks.waitTransfersSettled(client, journal, catchUpMs, violation);
    phase('transfers_settled');
    summary.journal = await checks.checkJournal(client, journal, violation);
    summary.ledger = await checks.checkLedger(client, violation);
    phase('journal_and_ledger');
    summary.webhooks = await checks.checkWebhooks(client, journal, receiver, cfg.dist, catchUpMs, violation);
    phase('webhooks');
    const health = await server.health();
    summary.worker =
      health && health.worker
        ? {
            restarts: health.worker.restarts,
            unresponsive_kills: health.worker.unresponsive_kills,
          }
        : null;
    await server.stop();

    // ── offline: replay --verify, and no card data on disk ────────────────────────────────────
    phase('stop');
    summary.replay = await replayVerify(cfg.dist, server.env, work, violation);
    phase('replay');
    await server.closeLog();
    summary.scan = checks.scanForCardData([...checks.filesUnder(dataDir), logFile], journal, violation);
    phase('scan');
  } catch (err) {
    violation(`the soak could not go on: ${err.stack || err}`);
  } finally {
    server.killNow();
    await receiver.close();
  }

  Object.assign(summary, {
    elapsed_seconds: Math.round((Date.now() - started) / 100) / 10,
    faults,
    kills: faults['kill-api'] + faults['kill-worker'],
    longest_orphan_worker_ms: server.longestOrphanMs,
    recovery_ms: Object.fromEntries(
      Object.entries(recoveries).map(([k, v]) => [
        k,
        v.length
          ? {
              mean: Math.round(v.reduce((a, b) => a + b, 0) / v.length),
              max: Math.max(...v),
            }
          : null,
      ]),
    ),
    phases_seconds: phases,
    operations: workload.counters.ops,
    requests: stats,
    deliveries: {
      received: receiver.delivered,
      failed_on_purpose: receiver.failedOnPurpose,
      requests: receiver.requests,
    },
    violations,
  });
  if (cfg.report) writeFileSync(cfg.report, JSON.stringify(summary, null, 2));
  printSummary(summary);
  if (violations.length) {
    process.stdout.write(
      `\nsoak: FAILED, seed ${cfg.seed}: ${violations[0].what}\n  reproduce: SOAK_SEED=${cfg.seed} SOAK_SECONDS=${cfg.seconds} npm run soak\n  kept: DATA_DIR ${dataDir}, server log ${logFile}\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(`\nsoak: PASSED, seed ${cfg.seed}, ${summary.kills} kills\n`);
    // A given SOAK_DATA_DIR stays; the temporary directory (server log, default DATA_DIR) goes.
    rmSync(work, { recursive: true, force: true });
  }
}

/** One fault, then waits until the server is whole again (API answering, worker running). */
async function inject(kind, server, violation) {
  if (kind === 'kill-api') {
    await server.kill9();
    await server.start();
    return;
  }
  const health = await server.health();
  const pid = health && health.worker && health.worker.pid;
  if (!pid || !alive(pid)) {
    // Still restarting from the last fault: wait for it, the fault goes to the next one.
    await waitWorker(server, null, violation);
    return inject(kind, server, violation);
  }
  process.kill(pid, kind === 'kill-worker' ? 'SIGKILL' : 'SIGSTOP');
  await waitWorker(server, pid, violation);
  if (alive(pid)) {
    violation(
      `the ${kind === 'kill-worker' ? 'killed' : 'stopped'} worker ${pid} is still there after its replacement started`,
    );
    process.kill(pid, 'SIGKILL');
  }
}

/** Until /health shows a running worker other than `oldPid` (the supervisor's backoff is at most 30 s, plus a start). */
async function waitWorker(server, oldPid, violation, timeoutMs = 75_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = await server.health();
    if (h && h.worker && h.worker.state === 'running' && h.worker.pid && h.worker.pid !== oldPid) return;
    if (Date.now() > deadline) {
      violation(
        `no running worker ${timeoutMs / 1000} s after ${oldPid ? `worker ${oldPid} was killed` : 'waiting'}: ${JSON.stringify(h && h.worker)}`,
      );
      return;
    }
    await sleep(50);
  }
}

/** `replay --verify` on the stopped server's DATA_DIR (the same environment): chains, read models = rebuild, ledger at every position. */
function replayVerify(dist, env, work, violation) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [join(dist, 'apps/replay/src/main.js'), '--verify'], {
      env: { ...process.env, ...env, TMPDIR: work },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('exit', (code) => {
      const text = Buffer.concat(out).toString('utf8');
      const replayed = /replayed (\d+) events of (\d+) streams/.exec(text);
      if (code !== 0)
        violation(
          `replay --verify exited ${code}:\n${text
            .split('\n')
            .filter((l) => !/\|\s*same\s*\|/.test(l))
            .slice(-40)
            .join('\n')}`,
        );
      done({
        exit: code,
        seconds: Math.round((Date.now() - t0) / 100) / 10,
        events: replayed ? Number(replayed[1]) : null,
        streams: replayed ? Number(replayed[2]) : null,
        verdict: text.trim().split('\n').pop(),
      });
    });
  });
}

function printSummary(s) {
  const ops = Object.entries(s.operations || {})
    .map(([op, c]) => `${op} ${c.ok}/${c.refused}/${c.unknown}`)
    .join(', ');
  const lines = [
    '',
    `seed ${s.seed}; workload ${s.workload_seconds} s, whole run ${s.elapsed_seconds} s`,
    `faults: ${s.kills} kill -9 (${s.faults['kill-api']} of the API, the last one before the checks; ${s.faults['kill-worker']} of the worker), ${s.faults['stop-worker']} SIGSTOP of the worker; longest a worker outlived its killed API: ${s.longest_orphan_worker_ms} ms`,
    `recovery after a fault (ms): ${JSON.stringify(s.recovery_ms)}; phases (s): ${JSON.stringify(s.phases_seconds)}`,
    `operations (ok/refused/unknown): ${ops}`,
    `requests: ${s.requests.requests} sent, ${s.requests.retries} retries, ${s.requests.refusedConnections} refused connections, answers lost ${JSON.stringify(s.requests.lostAnswers)}, ${s.requests.replays} idempotent replays, ${s.requests.keyInUse} key-in-use waits, 5xx ${JSON.stringify(s.requests.serverErrors)}`,
    s.journal ? `acknowledged and found: ${JSON.stringify(s.journal)}` : null,
    s.ledger ? `ledger: ${JSON.stringify(s.ledger.currencies)} (${s.ledger.accounts} ledger accounts)` : null,
    s.webhooks
      ? `webhooks: ${s.webhooks.webhooks} webhooks, ${s.webhooks.expected} deliveries due, ${s.webhooks.received} received (${s.deliveries.failed_on_purpose} first attempts refused on purpose)`
      : null,
    s.replay
      ? `replay --verify: exit ${s.replay.exit}, ${s.replay.events} events of ${s.replay.streams} streams in ${s.replay.seconds} s: ${s.replay.verdict}`
      : null,
    s.scan
      ? `card data scan: ${s.scan.files} files, ${(s.scan.bytes / 1e6).toFixed(1)} MB, ${s.scan.pans} PANs and ${s.scan.cvvs} CVVs looked for`
      : null,
    `violations: ${s.violations.length ? s.violations.length : 'none'}`,
  ];
  process.stdout.write(lines.filter(Boolean).join('\n') + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
