import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEvent, describeEventStoreContract, streamName } from './event-store.contract';
import { WrongExpectedRevisionError, type RecordedEvent } from './event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-'));
  dirs.push(dir);
  return join(dir, 'events.db');
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describeEventStoreContract('sqlite', async () => new SqliteEventStore(tempFile(), 20));

describe('SqliteEventStore', () => {
  it('keeps an acknowledged append across closing and reopening the file, fsyncing every commit', async () => {
    const file = tempFile();
    const store = new SqliteEventStore(file);
    const stream = streamName();
    const acked = await store.append(stream, [anEvent('Opened'), anEvent('Credited', { amount: 5 })], 'no_stream');
    // Not awaited before close: close must flush what is queued rather than drop it.
    const late = store.append(stream, [anEvent('Debited')], acked.nextExpectedRevision);
    await store.close();
    await expect(late).resolves.toMatchObject({ nextExpectedRevision: 2 });

    const reopened = new SqliteEventStore(file);
    expect(
      (reopened as unknown as { db: { pragma(s: string, o: object): unknown } }).db.pragma('synchronous', {
        simple: true,
      }),
    ).toBe(2);
    expect((await reopened.readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'Credited', 'Debited']);
    expect(await reopened.headPosition()).toBe(3);
    await reopened.append(stream, [anEvent('Closed')], 2);
    await reopened.close();
  });

  it('commits appends issued together in at most two batches, judging each one on its own', async () => {
    const store = new SqliteEventStore(tempFile());
    const existing = streamName();
    const duplicate = anEvent('Opened');
    await store.append(existing, [duplicate], 'no_stream');
    // Group commit: the first append goes to the writer thread alone, every one issued while it
    // is being synced joins the next batch.
    const send = jest.spyOn((store as unknown as { writer: { send(): void } }).writer, 'send');

    const streams = Array.from({ length: 50 }, () => streamName());
    const outcomes = await Promise.allSettled([
      ...streams.map((s) => store.append(s, [anEvent('Opened')], 'no_stream')),
      store.append(existing, [anEvent('Changed')], 'no_stream'),
      store.append(existing, [anEvent('Changed')], 0),
      store.append(existing, [anEvent('Changed')], 0),
      // Fails for a reason other than its revision (the event id is taken): only it is rolled back.
      store.append(streamName(), [duplicate], 'no_stream'),
    ]);

    expect(send.mock.calls.length).toBeLessThanOrEqual(2);
    expect(outcomes.slice(0, 50).every((o) => o.status === 'fulfilled')).toBe(true);
    const [noStream, first, second, dup] = outcomes.slice(50);
    expect(noStream).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
    expect(first).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 1 } });
    expect(second).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
    expect(dup).toMatchObject({ status: 'rejected' });
    expect((dup as PromiseRejectedResult).reason).not.toBeInstanceOf(WrongExpectedRevisionError);
    for (const s of streams) expect(await store.readStream(s)).toHaveLength(1);
    expect((await store.readStream(existing)).map((e) => e.type)).toEqual(['Opened', 'Changed']);
    expect(await store.readAll()).toHaveLength(52);
    await store.close();
  });

  it("serves readAll from its recent tail exactly as the file has it, including another process's appends", async () => {
    const file = tempFile();
    const [mine, other] = [new SqliteEventStore(file), new SqliteEventStore(file)];
    const streams = [streamName(), streamName()];
    await mine.append(streams[0], [anEvent('A'), anEvent('B')], 'no_stream');
    await other.append(streams[1], [anEvent('X')], 'no_stream');
    await mine.append(streams[0], [anEvent('C')], 1);
    await other.append(streams[1], [anEvent('Y')], 0);
    await mine.append(streams[0], [anEvent('D')], 2);
    const uncached = new SqliteEventStore(file);
    const strip = (events: RecordedEvent[]) =>
      events.map(({ id, streamId, type, revision, position, data, metadata }) => ({
        id,
        streamId,
        type,
        revision,
        position,
        data,
        metadata,
      }));
    const expected = strip(await uncached.readAll());
    expect(expected.map((e) => e.type)).toEqual(['A', 'B', 'X', 'C', 'Y', 'D']);
    // Every starting point, including ones where the tail has a hole the other store filled.
    for (const start of [0, ...expected.map((e) => e.position)]) {
      const read: RecordedEvent[] = [];
      for (
        let after = start, page = await mine.readAll({ after, limit: 2 });
        page.length;
        page = await mine.readAll({ after, limit: 2 })
      ) {
        read.push(...page);
        after = page[page.length - 1].position;
      }
      expect(strip(read)).toEqual(expected.filter((e) => e.position > start));
    }
    await Promise.all([mine.close(), other.close(), uncached.close()]);
  });

  it('keeps the head it read from the file for the next subscriber, but not a catch-up page', async () => {
    const file = tempFile();
    const [writer, reader] = [new SqliteEventStore(file), new SqliteEventStore(file)];
    await writer.append(streamName(), [anEvent('A'), anEvent('B'), anEvent('C')], 'no_stream');
    const queries = jest.spyOn(
      (reader as unknown as { stmts: { readAll: { all: (...a: unknown[]) => unknown } } }).stmts.readAll,
      'all',
    );

    // A full page is a reader catching up: nobody else needs it next, so it is not kept.
    expect((await reader.readAll({ after: 0, limit: 2 })).map((e) => e.type)).toEqual(['A', 'B']);
    expect((await reader.readAll({ after: 0, limit: 2 })).map((e) => e.type)).toEqual(['A', 'B']);
    expect(queries).toHaveBeenCalledTimes(2);

    // A short page reached the head: the second subscriber gets the same events without a query.
    queries.mockClear();
    const first = await reader.readAll({ after: 0, limit: 10 });
    const second = await reader.readAll({ after: 0, limit: 10 });
    expect(second).toEqual(first);
    expect(second.map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect(queries).toHaveBeenCalledTimes(1);
    await Promise.all([writer.close(), reader.close()]);
  });
});
