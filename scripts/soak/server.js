'use strict';
/**
 * The system under test: `npm start`'s entry (the API, which forks and supervises one worker with
 * every role) from a built dist directory, on one DATA_DIR, started again after every kill.
 */
const { spawn } = require('node:child_process');
const { createWriteStream, existsSync, readdirSync, readFileSync } = require('node:fs');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Alive and not a zombie (a killed worker reparented to a PID 1 that does not reap stays a zombie). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Child processes of `pid`, from /proc (Linux). */
function childrenOf(pid) {
  if (!existsSync('/proc')) return [];
  const children = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

class Server {
  /**
   * @param {{ entry: string, env: Record<string, string>, port: number, logFile: string, onViolation: (what: string) => void }} options
   */
  constructor(options) {
    this.entry = options.entry;
    this.env = options.env;
    this.port = options.port;
    this.url = `http://127.0.0.1:${options.port}`;
    this.log = createWriteStream(options.logFile, { flags: 'a' });
    this.onViolation = options.onViolation;
    this.child = null;
    this.starts = 0;
    /** Longest time a worker outlived its killed API, in ms. */
    this.longestOrphanMs = 0;
  }

  get pid() {
    return this.child ? this.child.pid : null;
  }

  /** Starts the API and waits until /health answers 200 with its worker running. */
  async start(timeoutMs = 90_000) {
    this.starts += 1;
    this.log.write(`\n=== soak: start #${this.starts} at ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [this.entry], {
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(this.log, { end: false });
    child.stderr.pipe(this.log, { end: false });
    child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    this.child = child;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `the API exited during start (code ${child.exitCode}, signal ${child.signalCode}); see ${this.log.path}`,
        );
      const health = await this.health(2_000);
      if (health && health.worker && health.worker.state === 'running') return health;
      if (Date.now() > deadline)
        throw new Error(
          `the API did not report a running worker within ${timeoutMs / 1000} s of its start; see ${this.log.path}`,
        );
      await sleep(50);
    }
  }

  /** GET /health, or null when the API does not answer. */
  async health(timeoutMs = 5_000) {
    try {
      const res = await fetch(`${this.url}/health`, {
        // The details (the worker's state) are behind the operator token (issue 32 item 10).
        headers: this.env.PAYMENTS_ADMIN_TOKEN ? { authorization: `Bearer ${this.env.PAYMENTS_ADMIN_TOKEN}` } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await res.json();
      return res.ok || res.status === 503 ? body : null;
    } catch {
      return null;
    }
  }

  /**
   * kill -9 of the API. Its worker has no one to commit for it any more and must leave when the
   * IPC channel closes: that is checked here, and it is a violation if it outlives the API by
   * more than `orphanLimitMs` (it would still be reading the log beside the next worker).
   */
  async kill9(orphanLimitMs = 15_000) {
    const child = this.child;
    if (!child) return;
    const workers = childrenOf(child.pid);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    await child.exited;
    this.child = null;
    const killedAt = Date.now();
    while (workers.some(alive)) {
      if (Date.now() - killedAt > orphanLimitMs) {
        this.onViolation(
          `the worker (pid ${workers.filter(alive).join(', ')}) was still running ${orphanLimitMs / 1000} s after its API was killed`,
        );
        for (const pid of workers.filter(alive)) process.kill(pid, 'SIGKILL');
        break;
      }
      await sleep(20);
    }
    this.longestOrphanMs = Math.max(this.longestOrphanMs, Date.now() - killedAt);
  }

  /** SIGTERM, a graceful stop (the worker stops with it). */
  async stop(timeoutMs = 30_000) {
    const child = this.child;
    if (!child) return;
    const workers = childrenOf(child.pid);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGTERM');
    const stopped = await Promise.race([child.exited.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!stopped) {
      this.onViolation(`the API did not stop within ${timeoutMs / 1000} s of SIGTERM`);
      process.kill(child.pid, 'SIGKILL');
      await child.exited;
    }
    this.child = null;
    const deadline = Date.now() + timeoutMs;
    while (workers.some(alive) && Date.now() < deadline) await sleep(20);
    for (const pid of workers.filter(alive)) process.kill(pid, 'SIGKILL');
  }

  /** For an exit of the soak itself: nothing it started is left running. */
  killNow() {
    if (!this.child) return;
    for (const pid of childrenOf(this.child.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    try {
      process.kill(this.child.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }

  closeLog() {
    return new Promise((resolve) => this.log.end(resolve));
  }
}

module.exports = { Server, alive, childrenOf, sleep };
