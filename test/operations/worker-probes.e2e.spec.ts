import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../webhooks/webhooks-helpers';

const ROOT = join(__dirname, '..', '..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * A worker deployment as deploy/ runs it (standalone, `npm run start:worker` from its TypeScript
 * entry through test/audit/ts-register.js): what its probes and Prometheus read on PORT.
 */
describe('a standalone worker: /health/live, /health/ready, /metrics', () => {
  let child: ChildProcess;
  let dir: string;
  let base: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payments-worker-probes-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      ['-r', join(ROOT, 'test', 'audit', 'ts-register.js'), join(ROOT, 'apps', 'worker', 'src', 'main.ts')],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          DATA_DIR: dir,
          PORT: String(port),
          WORKER_ROLES: 'projector,process-managers',
          EVENTSTORE_URL: '',
          MONGO_URL: '',
          KAFKA_BROKERS: '',
          SANDBOX_AUTO_ADVANCE: 'false',
        },
      },
    );
    const up = await eventually(
      () =>
        fetch(`${base}/health/live`).then(
          (r) => r.ok,
          () => false,
        ),
      (ok) => ok || child.exitCode !== null,
      60_000,
    );
    if (!up) throw new Error(`the worker did not start (exit ${child.exitCode})`);
  });
  afterAll(async () => {
    if (child && child.exitCode === null)
      await new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers liveness and readiness in the API probes shape', async () => {
    expect(await (await fetch(`${base}/health/live`)).json()).toEqual({
      status: 'ok',
      info: {},
      error: {},
      details: {},
    });
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      details: { readers: { status: 'up', roles: ['projector', 'process-managers'] }, event_store: { status: 'up' } },
    });
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
  });

  it('serves its metrics: positions and lag of its readers, each process manager, the process', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^payments_log_position\{reader="head"\} \d+$/m);
    expect(text).toMatch(/^payments_log_lag\{reader="projector"\} \d+$/m);
    // No publisher role here: its position is not this worker's to report.
    expect(text).not.toMatch(/reader="publisher"/);
    expect(text).toMatch(/^payments_process_manager_backlog\{manager="[a-z-]+"\} \d+$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
