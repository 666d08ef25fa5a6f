import { ulid } from 'ulid';
import { EventStore, EventToAppend, RecordedEvent, WrongExpectedRevisionError } from './event-store.port';

/**
 * The behaviour every EventStore adapter owes the command handlers and readers. Written to run
 * against a shared, non-empty server too: fresh stream names per test, and global reads start
 * from the head observed before the test appended.
 */
export function describeEventStoreContract(name: string, open: () => Promise<EventStore>, timeoutMs = 20_000): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    beforeEach(async () => {
      store = await open();
    }, timeoutMs);
    afterEach(async () => {
      await store.close();
    }, timeoutMs);
    jest.setTimeout(timeoutMs);

    describe('expected revision', () => {
      it('no_stream creates a stream at revision 0 and round-trips type, data and metadata', async () => {
        const stream = streamName();
        const event = anEvent('Opened', { amount: 125, tags: ['a'], nested: { ok: true } });
        const result = await store.append(stream, [event], 'no_stream');
        expect(result.nextExpectedRevision).toBe(0);
        const [read] = await store.readStream(stream);
        expect(read).toMatchObject({ id: event.metadata.event_id, streamId: stream, type: 'Opened', revision: 0 });
        expect(read.data).toEqual(event.data);
        expect(read.metadata).toEqual(event.metadata);
      });

      it('no_stream on an existing stream is a WrongExpectedRevisionError naming the actual revision', async () => {
        const stream = streamName();
        await store.append(stream, [anEvent('Opened')], 'no_stream');
        const error = await store.append(stream, [anEvent('Opened')], 'no_stream').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0 });
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      it('stream_exists rejects a missing stream and accepts an existing one', async () => {
        const stream = streamName();
        const error = await store.append(stream, [anEvent('Changed')], 'stream_exists').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
        await store.append(stream, [anEvent('Opened')], 'no_stream');
        await expect(store.append(stream, [anEvent('Changed')], 'stream_exists')).resolves.toMatchObject({
          nextExpectedRevision: 1,
        });
      });

      it('any appends whether or not the stream exists', async () => {
        const stream = streamName();
        await store.append(stream, [anEvent('A')], 'any');
        const result = await store.append(stream, [anEvent('B'), anEvent('C')], 'any');
        expect(result.nextExpectedRevision).toBe(2);
        expect((await store.readStream(stream)).map((e) => [e.type, e.revision])).toEqual([
          ['A', 0],
          ['B', 1],
          ['C', 2],
        ]);
      });

      it('an exact revision must equal the last revision of the stream', async () => {
        const stream = streamName();
        const first = await store.append(stream, [anEvent('A'), anEvent('B')], 'no_stream');
        expect(first.nextExpectedRevision).toBe(1);
        for (const stale of [0, 2]) {
          const error = await store.append(stream, [anEvent('X')], stale).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(WrongExpectedRevisionError);
          expect(error).toMatchObject({ expected: stale, actual: 1 });
        }
        await expect(store.append(stream, [anEvent('C')], 1)).resolves.toMatchObject({ nextExpectedRevision: 2 });
        const missing = await store.append(streamName(), [anEvent('X')], 0).catch((e: unknown) => e);
        expect(missing).toMatchObject({ name: 'WrongExpectedRevisionError', actual: 'no_stream' });
      });

      it('of concurrent appends at the same revision exactly one wins; the rest conflict', async () => {
        const stream = streamName();
        await store.append(stream, [anEvent('Opened')], 'no_stream');
        const attempts = Array.from({ length: 8 }, (_, i) => anEvent('Debited', { attempt: i }));
        const outcomes = await Promise.allSettled(attempts.map((e) => store.append(stream, [e], 0)));
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        lost.forEach((o) => expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError));
        const events = await store.readStream(stream);
        expect(events).toHaveLength(2);
        expect(events[1].data).toEqual(attempts[outcomes.findIndex((o) => o.status === 'fulfilled')].data);
      });
    });

    it('readStream of a stream that does not exist is empty', async () => {
      await expect(store.readStream(streamName())).resolves.toEqual([]);
    });

    it('readStream from a revision returns that event and the ones after it, and nothing past the end', async () => {
      const stream = streamName();
      await store.append(stream, [anEvent('A'), anEvent('B'), anEvent('C')], 'no_stream');
      expect((await store.readStream(stream, { fromRevision: 1 })).map((e) => [e.type, e.revision])).toEqual([
        ['B', 1],
        ['C', 2],
      ]);
      expect(await store.readStream(stream, { fromRevision: 3 })).toEqual([]);
      expect((await store.readStream(stream, { fromRevision: 0 })).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    });

    it('readStream with maxCount returns at most that many, from the revision asked (a page of a long stream)', async () => {
      const stream = streamName();
      await store.append(stream, [anEvent('A'), anEvent('B'), anEvent('C'), anEvent('D')], 'no_stream');
      expect((await store.readStream(stream, { maxCount: 2 })).map((e) => e.type)).toEqual(['A', 'B']);
      expect(
        (await store.readStream(stream, { fromRevision: 1, maxCount: 2 })).map((e) => [e.type, e.revision]),
      ).toEqual([
        ['B', 1],
        ['C', 2],
      ]);
      expect((await store.readStream(stream, { fromRevision: 3, maxCount: 5 })).map((e) => e.type)).toEqual(['D']);
    });

    it("readStream gives each event its global position: the one readAll gives it, the append's for the last", async () => {
      const before = await store.headPosition();
      const [a, b] = [streamName(), streamName()];
      await store.append(a, [anEvent('A1'), anEvent('A2')], 'no_stream');
      await store.append(b, [anEvent('B1')], 'no_stream');
      const last = await store.append(a, [anEvent('A3')], 1);
      const stream = await store.readStream(a);
      const all = ours(await store.readAll({ after: before }), a);
      expect(stream.map((e) => e.type)).toEqual(['A1', 'A2', 'A3']);
      // Positions on stream reads are what as_of, history, webhook routing and the audit checkpoints rely on.
      expect(stream.map((e) => e.position)).toEqual(all.map((e) => e.position));
      expect(stream.every((e) => Number.isSafeInteger(e.position) && e.position > before)).toBe(true);
      expect(increasing(stream.map((e) => e.position))).toBe(true);
      expect(stream[2].position).toBe(last.position);
      const [b1] = await store.readStream(b);
      expect(b1.position).toBeGreaterThan(stream[1].position);
      expect(b1.position).toBeLessThan(stream[2].position);
      expect((await store.readStream(a, { fromRevision: 2 })).map((e) => e.position)).toEqual([last.position]);
    });

    describe('global log', () => {
      it('readAll returns appends in order, strictly after `after`, up to `limit`', async () => {
        const before = await store.headPosition();
        const [a, b] = [streamName(), streamName()];
        await store.append(a, [anEvent('A1'), anEvent('A2')], 'no_stream');
        const last = await store.append(b, [anEvent('B1')], 'no_stream');
        await store.append(a, [anEvent('A3')], 1);
        const all = ours(await store.readAll({ after: before }), a, b);
        expect(all.map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'A3']);
        expect(increasing(all.map((e) => e.position))).toBe(true);
        expect(all[2].position).toBe(last.position);
        const rest = ours(await store.readAll({ after: all[1].position }), a, b);
        expect(rest.map((e) => e.type)).toEqual(['B1', 'A3']);
        expect(ours(await store.readAll({ after: before, limit: 2 }), a, b).map((e) => e.type)).toEqual(['A1', 'A2']);
      });

      it('headPosition is the position of the last event appended', async () => {
        const result = await store.append(streamName(), [anEvent('A'), anEvent('B')], 'no_stream');
        expect(await store.headPosition()).toBe(result.position);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up, then follows live appends, one event at a time in order', async () => {
        const stream = streamName();
        const before = await store.headPosition();
        await store.append(stream, [anEvent('Past1'), anEvent('Past2')], 'no_stream');
        const seen = collector(stream);
        let running = 0;
        const sub = store.subscribeToAll({ after: before }, async (e) => {
          running += 1;
          if (running > 1) throw new Error('handler ran concurrently');
          await new Promise((r) => setTimeout(r, 2));
          seen.push(e);
          running -= 1;
        });
        await seen.until(2);
        await store.append(stream, [anEvent('Live1')], 1);
        await store.append(stream, [anEvent('Live2')], 2);
        await seen.until(4);
        await sub.stop();
        expect(seen.events.map((e) => e.type)).toEqual(['Past1', 'Past2', 'Live1', 'Live2']);
      });

      it('resumes strictly after a checkpoint and delivers nothing after stop', async () => {
        const stream = streamName();
        const before = await store.headPosition();
        await store.append(stream, [anEvent('E1'), anEvent('E2'), anEvent('E3')], 'no_stream');
        const all = ours(await store.readAll({ after: before }), stream);
        const seen = collector(stream);
        const sub = store.subscribeToAll({ after: all[0].position }, async (e) => seen.push(e));
        await seen.until(2);
        await sub.stop();
        expect(seen.events.map((e) => e.type)).toEqual(['E2', 'E3']);
        await store.append(stream, [anEvent('E4')], 2);
        await new Promise((r) => setTimeout(r, 300));
        expect(seen.events).toHaveLength(2);
      });

      it('a throwing handler stops the subscription and reports the error', async () => {
        const stream = streamName();
        const before = await store.headPosition();
        await store.append(stream, [anEvent('E1'), anEvent('E2')], 'no_stream');
        const handled: string[] = [];
        const failure = new Promise<unknown>((resolve) => {
          const sub = store.subscribeToAll({ after: before, onError: resolve }, async (e) => {
            if (e.streamId !== stream) return;
            handled.push(e.type);
            throw new Error('boom');
          });
          afterStop.push(() => sub.stop());
        });
        await expect(failure).resolves.toThrow('boom');
        expect(handled).toEqual(['E1']);
      });
    });

    const afterStop: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const stop of afterStop.splice(0)) await stop();
    });
  });
}

export function anEvent(type: string, data: Record<string, unknown> = {}): EventToAppend {
  const id = ulid();
  return {
    type,
    data,
    metadata: {
      event_id: id,
      organization_id: 'org_contract',
      correlation_id: id,
      causation_id: id,
      schema_version: 1,
      occurred_at: Date.now(),
    },
  };
}

export function streamName(prefix = 'contract'): string {
  return `${prefix}-${ulid()}`;
}

function ours(events: RecordedEvent[], ...streams: string[]): RecordedEvent[] {
  return events.filter((e) => streams.includes(e.streamId));
}

function increasing(values: number[]): boolean {
  return values.every((v, i) => i === 0 || v > values[i - 1]);
}

/** Collects one stream's events and lets a test wait for a count, failing clearly on timeout. */
function collector(stream: string) {
  const events: RecordedEvent[] = [];
  let notify = () => {};
  return {
    events,
    push(event: RecordedEvent) {
      if (event.streamId !== stream) return;
      events.push(event);
      notify();
    },
    async until(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${events.length}`);
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
  };
}
