import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { WorkerRole } from '@app/platform/config/platform-config';

const ROOT = join(__dirname, '..', '..');
/** `npm-start` is what `npm start` runs (the API and its supervised worker); the others are `npm run start:<name>`. */
export type AppName = 'api' | 'worker' | 'npm-start';

/**
 * The node flags and the file the app's npm script runs, read from package.json so the test runs
 * what operators run (`npm start` sets the API's heap limit).
 */
export function commandOf(name: AppName): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const script = name === 'npm-start' ? 'start' : `start:${name}`;
  const match = /^node((?: --[\w-]+(?:=\S+)?)*) (\S+\.js)$/.exec(scripts[script] ?? '');
  if (!match) throw new Error(`package.json ${script} should be "node [--flag…] <compiled entry>"`);
  return [...match[1].split(' ').filter(Boolean), join(ROOT, match[2])];
}

export interface AppProcess {
  readonly name: AppName;
  readonly url: string;
  readonly pid: number;
  health(): Promise<Record<string, any>>;
  /** SIGTERM and wait: a graceful stop. */
  stop(): Promise<void>;
  /** SIGKILL and wait: a crash, with no chance to flush or checkpoint. */
  kill(): Promise<void>;
  output(): string;
  /** False once the process exited (a worker exits 1 when a reader fails; its orchestrator starts another). */
  alive(): boolean;
}

const started = new Set<ChildProcess>();

/** Starts a compiled app as its own OS process on a free port and waits for GET /health. */
export async function startApp(name: AppName, env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  // The API's /health has its details behind the operator token (issue 32 item 10): every app gets one, health() sends it.
  const operator = env.PAYMENTS_ADMIN_TOKEN ?? 'dist-operator-token-0123456789abcdef0123456789';
  const child = spawn(process.execPath, commandOf(name), {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      KAFKA_CLIENT_ID: `dist-${name}${env.WORKER_ROLES ? `-${env.WORKER_ROLES.replace(/,/g, '-')}` : ''}`,
      PAYMENTS_ADMIN_TOKEN: operator,
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  const out: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => out.push(c));
  child.stderr!.on('data', (c: Buffer) => out.push(c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const signal = async (sig: NodeJS.Signals) => {
    started.delete(child);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, sig);
    await exited;
  };
  const app: AppProcess = {
    name,
    url,
    pid: child.pid!,
    health: async () =>
      (await fetch(`${url}/health`, { headers: { authorization: `Bearer ${operator}` } })).json() as Promise<
        Record<string, any>
      >,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    output: () => Buffer.concat(out).toString('utf8'),
    alive: () => child.exitCode === null && child.signalCode === null,
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited during start:\n${app.output()}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return app;
    if (Date.now() > deadline) {
      await app.kill();
      throw new Error(`${name} did not answer /health within 60 s:\n${app.output()}`);
    }
    await sleep(100);
  }
}

/** `npm run start:worker` with the roles given (WORKER_ROLES), as one deployment of deploy/ runs it. */
export function startWorker(
  roles: WorkerRole | readonly WorkerRole[],
  env: Record<string, string>,
): Promise<AppProcess> {
  return startApp('worker', { ...env, WORKER_ROLES: ([] as WorkerRole[]).concat(roles).join(',') });
}

/** Every process a test started and did not stop is killed by its pid. */
export async function killStartedApps(): Promise<void> {
  for (const child of [...started]) {
    started.delete(child);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
process.on('exit', () => void killStartedApps());

/** What every process of one deployment shares: the log file, the read models, the bus. */
export function sharedEnvironment(dataDir: string, database: string, bootstrapKey: string): Record<string, string> {
  const mongoUrl = process.env.MONGO_URL;
  const brokers = process.env.KAFKA_BROKERS;
  if (!mongoUrl || !brokers)
    throw new Error('MONGO_URL and KAFKA_BROKERS must be set (npm run test:integration sets them)');
  return {
    DATA_DIR: dataDir,
    MONGO_URL: mongoUrl,
    MONGO_DATABASE: database,
    KAFKA_BROKERS: brokers,
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64'),
    PAYMENTS_BOOTSTRAP_API_KEYS: bootstrapKey,
    SANDBOX_AUTO_ADVANCE: 'false',
  };
}

/** A fresh key per run, so runs sharing a broker never share streams or bus keys. */
export function randomKey(): string {
  return `sk_test_dist${randomBytes(16).toString('hex')}`;
}

export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
