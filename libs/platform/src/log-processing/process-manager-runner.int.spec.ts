import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../clock';
import { SqliteCoordinationStore } from '../coordination/sqlite-coordination-store';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { ProcessManager } from './process-manager';
import { ProcessManagerRunner, type RunnerOptions } from './process-manager-runner';
import { sleep } from '../clock';

const event = (type: string, n: number) => ({
  type,
  data: { n },
  metadata: {
    event_id: `evt_${type}_${n}`,
    organization_id: 'org_1',
    correlation_id: 'c',
    causation_id: 'c',
    schema_version: 1,
    occurred_at: 0,
  },
});

const until = async (check: () => boolean, ms = 45_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

/** Work items finish only when the test releases them; `done` records finished work, `runs` every finish. */
function controlled(): ProcessManager & { done: number[]; runs: number[]; release(...n: number[]): void } {
  const gates = new Map<number, () => void>();
  const waits = new Map<number, Promise<void>>();
  const gate = (n: number) => {
    if (!waits.has(n)) waits.set(n, new Promise<void>((r) => gates.set(n, r)));
    return waits.get(n)!;
  };
  const done: number[] = [];
  const runs: number[] = [];
  return {
    name: 'test',
    handles: ['Work'],
    done,
    runs,
    release: (...ns) =>
      ns.forEach((n) => {
        gate(n);
        gates.get(n)!();
      }),
    async handle(e: RecordedEvent, signal: AbortSignal) {
      const n = Number(e.data.n);
      await Promise.race([gate(n), sleep(60_000, signal)]);
      runs.push(n);
      if (!done.includes(n)) done.push(n);
    },
  };
}

describe('ProcessManagerRunner', () => {
  let dir: string;
  let store: SqliteEventStore;
  /** Each coordination store stands for one process's connection to the shared database. */
  let coordinations: SqliteCoordinationStore[];
  // A long lease against a slow machine's stalls, frequent attempts so a released lease moves at once.
  const fast: RunnerOptions = { leaseTtlMs: 2_000, leaseRenewMs: 40 };
  const runnerFor = (manager: ProcessManager, options: RunnerOptions = fast, coordination = connect()) =>
    new ProcessManagerRunner({ store, checkpoints: coordination, leases: coordination }, manager, options);
  const connect = () => {
    const c = new SqliteCoordinationStore(join(dir, 'read-models.db'), systemClock);
    coordinations.push(c);
    return c;
  };
  const work = (...ns: number[]) => Promise.all(ns.map((n) => store.append(`s-${n}`, [event('Work', n)], 'any')));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-runner-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    coordinations = [];
  });
  afterEach(async () => {
    await store.close();
    await Promise.all(coordinations.map((c) => c.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('works on later events while an earlier one waits, and keeps the checkpoint before the unfinished one', async () => {
    await store.append('s-1', [event('Work', 1)], 'any');
    await store.append('s-x', [event('Other', 0)], 'any');
    await store.append('s-2', [event('Work', 2)], 'any');
    const manager = controlled();
    const runner = runnerFor(manager);
    await runner.start();
    manager.release(2);
    await until(() => manager.done.includes(2));
    expect(manager.done).toEqual([2]);
    expect(runner.checkpoint).toBe(0);
    manager.release(1);
    await until(() => runner.pending === 0);
    expect(runner.checkpoint).toBe(await store.headPosition());
    await runner.stop();
    expect(await connect().getCheckpoint('process-manager:test')).toBe(await store.headPosition());
  });

  it('re-runs unfinished work after a restart, with the finished work after it (idempotent handlers absorb that)', async () => {
    await work(1);
    await work(2);
    await work(3);
    const first = controlled();
    const runner = runnerFor(first);
    await runner.start();
    first.release(1, 3);
    await until(() => first.done.length === 2);
    await runner.stop();
    const [, second] = await store.readAll();
    // Saved just before the unfinished event 2, although event 3 is finished.
    expect(await connect().getCheckpoint('process-manager:test')).toBe(second.position - 1);

    const next = controlled();
    next.release(2, 3);
    const restarted = runnerFor(next);
    await restarted.start();
    await until(() => restarted.pending === 0 && next.done.length === 2);
    expect(next.done.sort()).toEqual([2, 3]);
    await restarted.stop();
  });

  it('retries failing work until it succeeds', async () => {
    await work(1);
    let attempts = 0;
    const errors: unknown[] = [];
    const flaky: ProcessManager = {
      name: 'flaky',
      handles: ['Work'],
      handle: async () => {
        if (++attempts < 3) throw new Error('transient');
      },
    };
    const runner = runnerFor(flaky, { ...fast, retryDelayMs: 5, onError: (e) => errors.push(e) });
    await runner.start();
    await until(() => attempts === 3 && runner.pending === 0);
    expect(errors).toHaveLength(2);
    await runner.stop();
  });

  it('two runners on one store: one holds the lease and handles each event once, the other waits', async () => {
    const manager = controlled();
    const [a, b] = [runnerFor(manager), runnerFor(manager)];
    await Promise.all([a.start(), b.start()]);
    const ns = Array.from({ length: 20 }, (_, i) => i + 1);
    manager.release(...ns);
    await work(...ns);
    await until(() => manager.done.length === ns.length);
    await sleep(200, new AbortController().signal);
    expect(manager.runs.sort((x, y) => x - y)).toEqual(ns);
    expect([a.status.holding, b.status.holding].sort()).toEqual([false, true]);
    expect(a.status.handled + b.status.handled).toBe(ns.length);
    expect(Math.min(a.status.handled, b.status.handled)).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('when the holder stops, the other takes over from the checkpoint and finishes the work', async () => {
    const manager = controlled();
    const a = runnerFor(manager);
    await a.start();
    const b = runnerFor(manager);
    await b.start();
    expect([a.status.holding, b.status.holding]).toEqual([true, false]);
    await work(1, 2, 3, 4);
    manager.release(1, 2);
    await until(() => manager.done.length === 2);
    await a.stop();
    expect(a.status.holding).toBe(false);
    manager.release(3, 4);
    await until(() => b.status.holding && manager.done.length === 4);
    expect(manager.done.sort()).toEqual([1, 2, 3, 4]);
    await work(5);
    manager.release(5);
    await until(() => manager.done.includes(5));
    expect(b.status.handled).toBeGreaterThanOrEqual(3);
    await b.stop();
  });

  it('a holder that cannot renew stops working before its lease expires; another takes over after expiry', async () => {
    const manager = controlled();
    const coordination = connect();
    let reachable = true;
    const flakyLeases = {
      acquire: (name: string, holder: string, ttl: number) =>
        reachable ? coordination.acquire(name, holder, ttl) : Promise.reject(new Error('unreachable')),
      release: (name: string, holder: string) => coordination.release(name, holder),
    };
    // The holder gives up between one and two renewal intervals before expiry.
    const expiring: RunnerOptions = { leaseTtlMs: 1_000, leaseRenewMs: 200 };
    const a = new ProcessManagerRunner({ store, checkpoints: coordination, leases: flakyLeases }, manager, {
      ...expiring,
      onCoordinationError: () => undefined,
    });
    await a.start();
    const b = runnerFor(manager, expiring);
    await b.start();
    await work(1);
    manager.release(1);
    await until(() => manager.done.length === 1);
    reachable = false;
    await until(() => !a.status.holding);
    // The lease has not expired yet: nobody works for a moment, and never two at once.
    expect(b.status.holding).toBe(false);
    await work(2);
    manager.release(2);
    await until(() => b.status.holding && manager.done.includes(2));
    expect(manager.runs.filter((n) => n === 2)).toHaveLength(1);
    await Promise.all([a.stop(), b.stop()]);
  });
});
