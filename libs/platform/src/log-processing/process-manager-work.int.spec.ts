import { createHook } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointStore } from '../coordination/checkpoint-store.port';
import type { RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { CheckpointedReader } from './checkpointed-reader';
import { ProcessManagerWork } from './process-manager-work';

const SLOTS = 100;
const EVENTS = 600;

const until = async (check: () => boolean, what: string) => {
  for (const end = Date.now() + 30_000; !check(); await new Promise((r) => setTimeout(r, 5)))
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
};

describe('A process manager at its concurrency', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkpointed-work-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // A saturated manager waited for a free slot with Promise.race over every step in flight: each race
  // left a reaction and a promise on all of them until they settled, so a worker whose steps sleep
  // (a grace, a network delay) piled up events × slots of them (a heap snapshot at the worker's heap
  // limit: 62 MB of promises and reactions for 1,000 steps). The promises created while events wait
  // must be a few per event, not a slot's worth.
  it('waits for a free slot without attaching to every step in flight', async () => {
    const gates: Array<() => void> = [];
    let finished = 0;
    const checkpoints: CheckpointStore = { getCheckpoint: async () => 0, saveCheckpoint: async () => undefined };
    const manager = new ProcessManagerWork(
      {
        name: 'test',
        handles: ['Work'],
        handle: async () => {
          await new Promise<void>((resolve) => gates.push(resolve));
          finished++;
        },
      } as never,
      { concurrency: SLOTS },
    );
    const work = new CheckpointedReader(store, checkpoints, manager);
    for (let i = 0; i < EVENTS; i++)
      await store.append(
        `work-${i}`,
        [{ type: 'Work', data: { i }, metadata: { event_id: `evt_${i}` } as RecordedEvent['metadata'] }],
        'no_stream',
      );
    await work.start();
    await until(() => gates.length === SLOTS, 'the slots to fill');

    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
    try {
      // One step at a time: each frees a slot, which the next waiting event takes.
      for (let released = 0; released < EVENTS - SLOTS; released++) {
        gates[released]();
        await until(() => gates.length === SLOTS + released + 1, 'the next event to take the slot');
      }
    } finally {
      hook.disable();
    }
    gates.slice(EVENTS - SLOTS).forEach((release) => release());
    await until(() => finished === EVENTS, 'every step');
    await work.stop();
    expect(promises / (EVENTS - SLOTS)).toBeLessThan(SLOTS / 4);
  });
});
