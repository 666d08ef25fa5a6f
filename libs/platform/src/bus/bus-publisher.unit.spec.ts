import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { ReadStore } from '../read-store/read-store.port';
import { BusPublisher, PUBLISHER_CHECKPOINT } from './bus-publisher';
import type { BusMessage, MessageBus } from './message-bus.port';

const event = (position: number): RecordedEvent => ({
  id: `evt_${position}`,
  streamId: `acc_${position % 3}`,
  type: 'Tested',
  data: {},
  metadata: { correlation_id: `req_${position}` } as RecordedEvent['metadata'],
  revision: 0,
  position,
});

/** A log whose subscriber is handed events by the test, a bus whose publishes the test lets finish, and checkpoints in memory. */
function harness() {
  let deliver!: (event: RecordedEvent) => Promise<void>;
  const store = {
    subscribeToAll: (_options: unknown, handler: typeof deliver) => (
      (deliver = handler),
      { stop: async () => undefined }
    ),
  } as unknown as EventStore;
  const publishes: Array<{ keys: string[]; done: () => void }> = [];
  const bus = {
    publish: (_topic: string, messages: readonly BusMessage[]) =>
      new Promise<void>((done) => publishes.push({ keys: messages.map((m) => JSON.parse(m.value).id), done })),
  } as unknown as MessageBus;
  const checkpoints: Record<string, number> = {};
  const readStore = {
    getCheckpoint: async (name: string) => checkpoints[name] ?? 0,
    apply: async (_writes: unknown, moved: Record<string, number>) => void Object.assign(checkpoints, moved),
  } as unknown as ReadStore;
  return {
    publisher: new BusPublisher(store, bus, readStore),
    deliver: (e: RecordedEvent) => deliver(e),
    publishes,
    checkpoints,
  };
}

/** A few turns of the event loop: what the publisher does without a timer is done by then. */
async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('BusPublisher', () => {
  // Timers never fire here: a publisher that waited for a window would publish nothing.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('publishes what one turn read together, and what arrives during a publish together in the next one', async () => {
    const { publisher, deliver, publishes, checkpoints } = harness();
    await publisher.start();
    // One page of the log, handed over in one turn as the subscription does.
    for (const position of [1, 2, 3]) await deliver(event(position));
    await turns();
    expect(publishes.map((p) => p.keys)).toEqual([['evt_1', 'evt_2', 'evt_3']]);
    // While it is in flight, events of later turns wait for it and then go in one publish.
    await deliver(event(4));
    await turns();
    await deliver(event(5));
    await turns();
    expect(publishes).toHaveLength(1);
    publishes[0].done();
    await turns();
    expect(publishes.map((p) => p.keys)).toEqual([
      ['evt_1', 'evt_2', 'evt_3'],
      ['evt_4', 'evt_5'],
    ]);
    // Its checkpoint is saved at most every 250 ms, not once per publish (timers never fire here), and when it stops.
    expect(checkpoints[PUBLISHER_CHECKPOINT]).toBeUndefined();
    publishes[1].done();
    await turns();
    expect(publisher.lastPosition).toBe(5);
    await publisher.stop();
    expect(publishes).toHaveLength(2);
    expect(checkpoints[PUBLISHER_CHECKPOINT]).toBe(5);
  });
});
