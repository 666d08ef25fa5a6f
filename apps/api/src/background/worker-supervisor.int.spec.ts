import { join } from 'node:path';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { AppMetrics, eventStoreAppends } from '@app/platform/metrics/metrics';
import { readFileSync } from 'node:fs';
import { WorkerSupervisor, workerFlags, type SupervisorOptions } from './worker-supervisor';

const entry = join(__dirname, 'worker-supervisor.fixture.js');
// The stand-in never appends, so the supervisor is never asked to commit through this log.
const log = {} as EventStore;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 45_000) => {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

describe('WorkerSupervisor', () => {
  let supervisor: WorkerSupervisor | null = null;
  const stopped: number[] = [];
  const start = async (options: Partial<SupervisorOptions> = {}) => {
    supervisor = new WorkerSupervisor({ entry, ...options });
    await supervisor.start(log);
    return supervisor;
  };
  /** Waits for a worker other than `previous` to run. */
  const restartedAfter = async (previous: number): Promise<{ pid: number }> => {
    let pid = 0;
    await until(async () => {
      const s = await supervisor!.status(100);
      pid = s.pid ?? 0;
      return s.state === 'running' && pid !== 0 && pid !== previous && s.report !== null;
    }, 'a new worker');
    return { pid };
  };
  /** The restart delays the supervisor scheduled (its timers, read rather than timed: issue 32). */
  const scheduled = (timers: jest.SpyInstance, backoffs: number[]) =>
    timers.mock.calls.map((call) => call[1] as number).filter((ms) => backoffs.includes(ms));
  afterEach(async () => {
    await supervisor?.onApplicationShutdown();
    supervisor = null;
    // A SIGSTOPped worker the test left behind is killed by its pid.
    for (const pid of stopped.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('starts the worker, asks it for its status, and keeps no answered request', async () => {
    await start();
    for (let i = 0; i < 5; i++)
      expect(await supervisor!.status()).toMatchObject({
        state: 'running',
        restarts: 0,
        report: { projected: 7, published: 7 },
      });
    expect((supervisor as unknown as { pendingStatus: Map<number, unknown> }).pendingStatus.size).toBe(0);
  });

  it("asks the worker for its metrics, which the API's /metrics sums with its own", async () => {
    await start();
    expect(await supervisor!.metrics()).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'payments_webhook_deliveries_total' })]),
    );
    const metrics = new AppMetrics();
    metrics.addSource(() => supervisor!.metrics());
    const before = (await eventStoreAppends.get()).values.find((v) => v.labels.outcome === 'ok')?.value ?? 0;
    eventStoreAppends.inc({ outcome: 'ok' }, 2);
    const text = await metrics.text();
    expect(text).toContain('payments_webhook_deliveries_total{outcome="succeeded"} 3');
    // The worker's 5 appends and this process's own, one series.
    expect(text).toContain(`payments_event_store_appends_total{outcome="ok"} ${before + 2 + 5}`);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    await supervisor!.onApplicationShutdown();
    expect(await supervisor!.metrics()).toBeNull();
    // A worker that does not answer adds nothing: the scrape is this process alone.
    expect(await metrics.text()).toContain(`payments_event_store_appends_total{outcome="ok"} ${before + 2}`);
  });

  it('starts it again after it is SIGKILLed, with a backoff that doubles, and stops it on shutdown', async () => {
    await start({ backoffMs: { first: 200, max: 400 }, heartbeat: { intervalMs: 50, timeoutMs: 5_000 } });
    const timers = jest.spyOn(global, 'setTimeout');
    const first = (await supervisor!.status()).pid!;
    process.kill(first, 'SIGKILL');
    const second = await restartedAfter(first);
    process.kill(second.pid, 'SIGKILL');
    const third = await restartedAfter(second.pid);
    // 200 ms, then 400 ms before the next start.
    expect(scheduled(timers, [200, 400])).toEqual([200, 400]);
    timers.mockRestore();
    expect(await supervisor!.status()).toMatchObject({ state: 'running', restarts: 2, unresponsive_kills: 0 });
    await supervisor!.onApplicationShutdown();
    await until(() => !alive(third.pid), 'the worker to stop');
    expect(await supervisor!.status()).toMatchObject({ state: 'stopped', pid: null });
    supervisor = null;
  });

  it('kills a worker that stops answering its heartbeat (SIGSTOP) and starts another', async () => {
    await start({ backoffMs: { first: 150, max: 300 }, heartbeat: { intervalMs: 50, timeoutMs: 400 } });
    const timers = jest.spyOn(global, 'setTimeout');
    const first = (await supervisor!.status()).pid!;
    stopped.push(first);
    process.kill(first, 'SIGSTOP');
    // Still there while the heartbeat has not run out: a stopped process is not an exited one.
    expect(alive(first)).toBe(true);
    const next = await restartedAfter(first);
    expect(alive(first)).toBe(false);
    expect(await supervisor!.status()).toMatchObject({
      state: 'running',
      restarts: 1,
      unresponsive_kills: 1,
      pid: next.pid,
    });

    // Again: the backoff has doubled.
    stopped.push(next.pid);
    process.kill(next.pid, 'SIGSTOP');
    await restartedAfter(next.pid);
    expect(scheduled(timers, [150, 300])).toEqual([150, 300]);
    timers.mockRestore();
    expect(await supervisor!.status()).toMatchObject({ restarts: 2, unresponsive_kills: 2 });
  });

  it("keeps a worker that answered while the API's own event loop was blocked longer than the timeout", async () => {
    await start({ backoffMs: { first: 150, max: 300 }, heartbeat: { intervalMs: 50, timeoutMs: 400 } });
    const before = await supervisor!.status();
    const pings: number[] = [];
    const send = (supervisor as unknown as { send: (m: { type: string; id?: number }) => void }).send.bind(supervisor);
    (supervisor as unknown as { send: typeof send }).send = (m) => (m.type === 'ping' && pings.push(m.id!), send(m));
    // A busy loop: no timer fires and no answer is read until the worker has been unread for 3 timeouts.
    for (const end = Date.now() + 1_200; Date.now() < end;);
    // The heartbeat goes on (it stops on a kill): three pings after the block, each answered.
    await until(() => pings.length >= 3, 'three heartbeats after the block');
    expect(await supervisor!.status()).toMatchObject({
      state: 'running',
      pid: before.pid,
      restarts: 0,
      unresponsive_kills: 0,
    });
    expect(alive(before.pid!)).toBe(true);
  });

  it('forks the worker with the heap limit npm start sets, in place of one this process has', async () => {
    const own = [...process.execArgv];
    process.execArgv.push('--max-old-space-size=4096');
    try {
      expect(workerFlags(77).filter((f) => f.startsWith('--max-old-space-size'))).toEqual(['--max-old-space-size=77']);
    } finally {
      process.execArgv.splice(0, process.execArgv.length, ...own);
    }
    await start({ execArgv: workerFlags(77) });
    const pid = (await supervisor!.status()).pid!;
    // The worker's command line, as the kernel has it.
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--max-old-space-size=77');
  });

  it('fails the start when the worker exits before it is ready', async () => {
    supervisor = new WorkerSupervisor({ entry, env: { ...process.env, FIXTURE_EXIT_AT_START: '1' } });
    await expect(supervisor.start(log)).rejects.toThrow('the worker exited during start');
  });
});
