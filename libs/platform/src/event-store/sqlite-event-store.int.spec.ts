import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEvent, describeEventStoreContract, streamName } from './event-store.contract';
import { WrongExpectedRevisionError } from './event-store.port';
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
    expect((reopened as unknown as { db: { pragma(s: string, o: object): unknown } }).db.pragma('synchronous', { simple: true })).toBe(2);
    expect((await reopened.readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'Credited', 'Debited']);
    expect(await reopened.headPosition()).toBe(3);
    await reopened.append(stream, [anEvent('Closed')], 2);
    await reopened.close();
  });

  it('commits appends issued together in one transaction, judging each one on its own', async () => {
    const store = new SqliteEventStore(tempFile());
    const existing = streamName();
    const duplicate = anEvent('Opened');
    await store.append(existing, [duplicate], 'no_stream');
    const flush = jest.spyOn(store as unknown as { flush(): void }, 'flush');

    const streams = Array.from({ length: 50 }, () => streamName());
    const outcomes = await Promise.allSettled([
      ...streams.map((s) => store.append(s, [anEvent('Opened')], 'no_stream')),
      store.append(existing, [anEvent('Changed')], 'no_stream'),
      store.append(existing, [anEvent('Changed')], 0),
      store.append(existing, [anEvent('Changed')], 0),
      // Fails for a reason other than its revision (the event id is taken): only it is rolled back.
      store.append(streamName(), [duplicate], 'no_stream'),
    ]);

    expect(flush).toHaveBeenCalledTimes(1);
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
});
