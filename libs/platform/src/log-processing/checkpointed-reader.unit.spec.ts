import type { CheckpointStore } from '../coordination/checkpoint-store.port';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { CheckpointedReader } from './checkpointed-reader';
import type { BatchProcessor, EventProcessor } from './log-processor';

const event = (position: number): RecordedEvent => ({
  id: `evt_${position}`,
  streamId: 's',
  type: 'Tested',
  data: {},
  metadata: {} as RecordedEvent['metadata'],
  revision: 0,
  position,
});

/** A log whose subscriber the test feeds, and checkpoints in memory that record every save. */
function harness(stored = 0) {
  let deliver!: (event: RecordedEvent) => Promise<void>;
  let after = -1;
  const store = {
    subscribeToAll: (options: { after: number }, handler: typeof deliver) => (
      (after = options.after),
      (deliver = handler),
      { stop: async () => undefined }
    ),
  } as unknown as EventStore;
  const saves: number[] = [];
  const checkpoints: CheckpointStore = {
    getCheckpoint: async () => stored,
    saveCheckpoint: async (_name, position) => void saves.push(position),
  };
  return { store, checkpoints, saves, deliver: (e: RecordedEvent) => deliver(e), subscribedAfter: () => after };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('CheckpointedReader', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('an owned checkpoint: resumes where the processor says, closes a batch when its window ends, and never saves for it', async () => {
    const h = harness(99);
    const batches: number[][] = [];
    const processor: BatchProcessor = {
      name: 'owned',
      batch: { maxEvents: 10, window: () => 20 },
      checkpoint: 'owned',
      resumeAfter: async () => 3,
      handleBatch: async (events) => void batches.push(events.map((e) => e.position)),
    };
    const reader = new CheckpointedReader(h.store, h.checkpoints, processor);
    await reader.start();
    expect(h.subscribedAfter()).toBe(3);
    await h.deliver(event(4));
    await h.deliver(event(5));
    await turns();
    expect(batches).toEqual([]);
    await jest.advanceTimersByTimeAsync(20);
    expect(batches).toEqual([[4, 5]]);
    expect(reader.lastPosition).toBe(5);
    await reader.stop();
    expect(h.saves).toEqual([]);
  });

  it('a batch processor every 250 ms: saved only once a batch is handled, at most once per interval and at stop; a failed batch is reported and not saved', async () => {
    const h = harness();
    const errors: unknown[] = [];
    let fail = true;
    const processor: BatchProcessor = {
      name: 'at-least-once',
      batch: { maxEvents: 2, window: 'turn' },
      checkpoint: { everyMs: 250 },
      handleBatch: async () => {
        if (fail) throw new Error('bus down');
      },
    };
    const reader = new CheckpointedReader(h.store, h.checkpoints, processor, { onError: (e) => errors.push(e) });
    await reader.start();
    await h.deliver(event(1));
    await turns();
    await jest.advanceTimersByTimeAsync(250);
    expect(errors).toHaveLength(1);
    expect(h.saves).toEqual([]);
    expect(reader.lastPosition).toBe(0);
    fail = false;
    const next = new CheckpointedReader(h.store, h.checkpoints, processor);
    await next.start();
    // A full batch is handed over at once, and the subscription waits for it; its save waits for the interval.
    await h.deliver(event(1));
    await h.deliver(event(2));
    expect(next.lastPosition).toBe(2);
    await h.deliver(event(3));
    await h.deliver(event(4));
    expect(h.saves).toEqual([]);
    await jest.advanceTimersByTimeAsync(250);
    expect(h.saves).toEqual([4]);
    await h.deliver(event(5));
    await turns();
    await next.stop();
    expect(h.saves).toEqual([4, 5]);
  });

  it('an event processor: its safe position is saved at most once per interval, and once more when it stops', async () => {
    const h = harness(10);
    let safe = 10;
    const processor: EventProcessor = {
      name: 'manager',
      checkpoint: { everyMs: 250 },
      handleEvent: async (e, progressed) => {
        safe = e.position;
        progressed();
      },
      safePosition: () => safe,
    };
    const reader = new CheckpointedReader(h.store, h.checkpoints, processor);
    await reader.start();
    expect(h.subscribedAfter()).toBe(10);
    for (const position of [11, 12, 13]) await h.deliver(event(position));
    expect(h.saves).toEqual([]);
    await jest.advanceTimersByTimeAsync(250);
    expect(h.saves).toEqual([13]);
    await h.deliver(event(14));
    await reader.stop();
    expect(h.saves).toEqual([13, 14]);
  });
});
