import { ulid } from 'ulid';
import type { BusMessage, BusSubscription, ConsumedMessage, MessageBus } from './message-bus.port';

/**
 * The behaviour every MessageBus adapter owes the webhook worker: per-key order, consumer groups
 * that resume from their committed offset, at-least-once delivery. Fresh topics and groups per
 * test, so it also runs against a shared broker.
 */
export function describeMessageBusContract(name: string, open: () => Promise<MessageBus>, timeoutMs = 20_000): void {
  describe(`MessageBus contract: ${name}`, () => {
    let bus: MessageBus;
    let topic: string;
    const subscriptions: BusSubscription[] = [];
    beforeEach(async () => {
      bus = await open();
      topic = `contract.${ulid().toLowerCase()}`;
    }, timeoutMs);
    afterEach(async () => {
      for (const s of subscriptions.splice(0)) await s.stop();
      await bus.close();
    }, timeoutMs);
    jest.setTimeout(timeoutMs * 3);

    const join = async (
      groupId: string,
      seen: Received,
      options: { fromBeginning?: boolean; onError?: (e: unknown) => void } = {},
    ) => {
      const sub = await bus.subscribe(topic, groupId, async (m) => seen.push(m), { fromBeginning: true, ...options });
      subscriptions.push(sub);
      return sub;
    };

    it('delivers every message with its key, value and headers, in order per key', async () => {
      const messages = Array.from({ length: 30 }, (_, i) => message(`key-${i % 3}`, i));
      await bus.publish(topic, messages.slice(0, 15));
      await bus.publish(topic, messages.slice(15));
      const seen = received();
      await join('g-order', seen);
      await seen.until(30, timeoutMs);
      expect(seen.values().sort((a, b) => a - b)).toEqual(messages.map((_, i) => i));
      for (const key of ['key-0', 'key-1', 'key-2']) {
        const values = seen.messages.filter((m) => m.key === key).map((m) => Number(m.value));
        expect(values).toEqual([...values].sort((a, b) => a - b));
      }
      expect(seen.messages[0].headers).toEqual({ 'event-type': 'Tested', seq: seen.messages[0].value });
      expect(seen.messages[0].topic).toBe(topic);
    });

    it('a group resumes after stop from its committed offset: nothing lost, nothing repeated', async () => {
      await bus.publish(
        topic,
        [0, 1, 2, 3].map((i) => message(`k${i}`, i)),
      );
      const first = received();
      const sub = await join('g-resume', first);
      await first.until(4, timeoutMs);
      await sub.stop();
      await bus.publish(
        topic,
        [4, 5, 6].map((i) => message(`k${i}`, i)),
      );
      bus = await reopen(bus, open);
      const second = received();
      await join('g-resume', second);
      await second.until(3, timeoutMs);
      await settle();
      expect(second.values().sort()).toEqual([4, 5, 6]);
    });

    it('redelivers a message whose handler threw, to the next member of the group', async () => {
      await bus.publish(topic, [message('k', 0), message('k', 1), message('k', 2)]);
      const handled: number[] = [];
      const failure = new Promise<unknown>((resolve) => {
        void bus
          .subscribe(
            topic,
            'g-retry',
            async (m) => {
              if (Number(m.value) === 1) throw new Error('receiver down');
              handled.push(Number(m.value));
            },
            { fromBeginning: true, onError: resolve },
          )
          .then((s) => subscriptions.push(s));
      });
      await expect(failure).resolves.toThrow('receiver down');
      expect(handled).toEqual([0]);
      for (const s of subscriptions.splice(0)) await s.stop();
      const retry = received();
      await join('g-retry', retry);
      await retry.until(2, timeoutMs);
      expect(retry.values()).toEqual([1, 2]);
    });

    it('hands a batch member what it read, in order, and gives a failed batch again whole', async () => {
      await bus.publish(
        topic,
        [0, 1, 2, 3].map((i) => message('k', i)),
      );
      const batches: number[][] = [];
      const failure = new Promise<unknown>((resolve) => {
        void bus
          .subscribeBatches(
            topic,
            'g-batches',
            async (messages) => {
              const values = messages.map((m) => Number(m.value));
              if (values.includes(5)) throw new Error('store down');
              batches.push(values);
            },
            { fromBeginning: true, onError: resolve },
          )
          .then((s) => subscriptions.push(s));
      });
      await until(() => batches.flat().length >= 4, timeoutMs);
      await bus.publish(
        topic,
        [4, 5].map((i) => message('k', i)),
      );
      await expect(failure).resolves.toThrow('store down');
      // 4 went before the failure where a batch holds one message (Kafka here), with 5 where they come together.
      expect(batches.flat().filter((v) => v < 4)).toEqual([0, 1, 2, 3]);
      expect(batches.flat()).not.toContain(5);
      expect(batches.every((b) => b.length > 0)).toBe(true);
      for (const s of subscriptions.splice(0)) await s.stop();
      // The failed batch is not committed: the next member gets it again, and nothing committed before it.
      const retry: number[] = [];
      subscriptions.push(
        await bus.subscribeBatches(
          topic,
          'g-batches',
          async (messages) => void retry.push(...messages.map((m) => Number(m.value))),
          { fromBeginning: true },
        ),
      );
      await until(() => retry.includes(5), timeoutMs);
      expect(retry).toEqual(batches.flat().includes(4) ? [5] : [4, 5]);
    });

    it('gives two groups every message each', async () => {
      const [a, b] = [received(), received()];
      await join('g-a', a);
      await join('g-b', b);
      await bus.publish(
        topic,
        [0, 1, 2, 3, 4].map((i) => message(`k${i}`, i)),
      );
      await a.until(5, timeoutMs);
      await b.until(5, timeoutMs);
      expect(a.values().sort()).toEqual([0, 1, 2, 3, 4]);
      expect(b.values().sort()).toEqual([0, 1, 2, 3, 4]);
    });

    it('shares a group between its members: each message reaches one of them', async () => {
      const [a, b] = [received(), received()];
      const first = await join('g-shared', a);
      await join('g-shared', b);
      await bus.publish(
        topic,
        Array.from({ length: 12 }, (_, i) => message(`k${i}`, i)),
      );
      await until(() => a.messages.length + b.messages.length >= 12, timeoutMs);
      await first.stop();
      await bus.publish(topic, [message('k', 12)]);
      await until(() => b.values().includes(12), timeoutMs);
      await settle();
      expect([...a.values(), ...b.values()].sort((x, y) => x - y)).toEqual(Array.from({ length: 13 }, (_, i) => i));
    });

    it('a new group not reading from the beginning starts at the head and keeps that place', async () => {
      await bus.publish(topic, [message('k', 0)]);
      const first = received();
      // Stopped before it consumed anything: its place must still be the head it joined at.
      await (await join('g-latest', first, { fromBeginning: false })).stop();
      await bus.publish(topic, [message('k', 1)]);
      const second = received();
      await join('g-latest', second, { fromBeginning: false });
      await bus.publish(topic, [message('k', 2)]);
      await second.until(2, timeoutMs);
      await settle();
      expect(first.values()).toEqual([]);
      expect(second.values()).toEqual([1, 2]);
    });
  });
}

function message(key: string, seq: number): BusMessage {
  return { key, value: String(seq), headers: { 'event-type': 'Tested', seq: String(seq) } };
}

async function reopen(bus: MessageBus, open: () => Promise<MessageBus>): Promise<MessageBus> {
  await bus.close();
  return open();
}

/** Gives a wrongly redelivered message time to show up before asserting there was none. */
function settle(ms = 500): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for messages');
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Received {
  readonly messages: ConsumedMessage[];
  push(m: ConsumedMessage): void;
  values(): number[];
  until(count: number, timeoutMs: number): Promise<void>;
}

function received(): Received {
  const messages: ConsumedMessage[] = [];
  return {
    messages,
    push: (m) => void messages.push(m),
    values: () => messages.map((m) => Number(m.value)),
    until: (count, timeoutMs) => until(() => messages.length >= count, timeoutMs),
  };
}
