import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';
import { ProcessManagerRunner, sleep, type ProcessManager } from './process-manager-runner';

const event = (type: string, n: number) => ({
  type,
  data: { n },
  metadata: { event_id: `evt_${type}_${n}`, organization_id: 'org_1', correlation_id: 'c', causation_id: 'c', schema_version: 1, occurred_at: 0 },
});

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('ProcessManagerRunner', () => {
  let dir: string;
  let store: SqliteEventStore;
  let readStore: SqliteReadStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-runner-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    readStore = new SqliteReadStore(join(dir, 'read.db'));
  });
  afterEach(async () => {
    await store.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Work items finish only when the test releases them; `done` records finished work. */
  function controlled(): ProcessManager & { done: number[]; release(n: number): void } {
    const gates = new Map<number, () => void>();
    const waits = new Map<number, Promise<void>>();
    const gate = (n: number) => {
      if (!waits.has(n)) waits.set(n, new Promise<void>((r) => gates.set(n, r)));
      return waits.get(n)!;
    };
    const done: number[] = [];
    return {
      name: 'test',
      handles: ['Work'],
      done,
      release: (n) => {
        gate(n);
        gates.get(n)!();
      },
      async handle(e: RecordedEvent, signal: AbortSignal) {
        const n = Number(e.data.n);
        await Promise.race([gate(n), sleep(60_000, signal)]);
        if (!done.includes(n)) done.push(n);
      },
    };
  }

  it('works on later events while an earlier one waits, and keeps the checkpoint before the unfinished one', async () => {
    await store.append('s-1', [event('Work', 1)], 'any');
    await store.append('s-x', [event('Other', 0)], 'any');
    await store.append('s-2', [event('Work', 2)], 'any');
    const manager = controlled();
    const runner = new ProcessManagerRunner(store, readStore, manager);
    await runner.start();
    manager.release(2);
    await until(() => manager.done.includes(2));
    expect(manager.done).toEqual([2]);
    expect(runner.checkpoint).toBe(0);
    manager.release(1);
    await until(() => runner.pending === 0);
    expect(runner.checkpoint).toBe(await store.headPosition());
    await runner.stop();
    expect(await readStore.getCheckpoint('process-manager:test')).toBe(await store.headPosition());
  });

  it('re-runs unfinished work after a restart, with the finished work after it (idempotent handlers absorb that)', async () => {
    await store.append('s-1', [event('Work', 1)], 'any');
    await store.append('s-2', [event('Work', 2)], 'any');
    await store.append('s-3', [event('Work', 3)], 'any');
    const first = controlled();
    const runner = new ProcessManagerRunner(store, readStore, first);
    await runner.start();
    first.release(1);
    first.release(3);
    await until(() => first.done.length === 2);
    await runner.stop();
    const [, second] = await store.readAll();
    // Saved just before the unfinished event 2, although event 3 is finished.
    expect(await readStore.getCheckpoint('process-manager:test')).toBe(second.position - 1);

    const next = controlled();
    [2, 3].forEach((n) => next.release(n));
    const restarted = new ProcessManagerRunner(store, readStore, next);
    await restarted.start();
    await until(() => restarted.pending === 0 && next.done.length === 2);
    expect(next.done.sort()).toEqual([2, 3]);
    await restarted.stop();
  });

  it('retries failing work until it succeeds', async () => {
    await store.append('s-1', [event('Work', 1)], 'any');
    let attempts = 0;
    const errors: unknown[] = [];
    const runner = new ProcessManagerRunner(
      store,
      readStore,
      { name: 'flaky', handles: ['Work'], handle: async () => {
          if (++attempts < 3) throw new Error('transient');
        },
      },
      { retryDelayMs: 5, onError: (e) => errors.push(e) },
    );
    await runner.start();
    await until(() => attempts === 3 && runner.pending === 0);
    expect(errors).toHaveLength(2);
    await runner.stop();
  });
});
