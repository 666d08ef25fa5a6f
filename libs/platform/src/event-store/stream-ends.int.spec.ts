import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEvent, describeEventStoreContract, streamName } from './event-store.contract';
import { WrongExpectedRevisionError } from './event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stream-ends-'));
  dirs.push(dir);
  return join(dir, 'events.db');
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const oneWriter = (file: string) => {
  const store = new SqliteEventStore(file, 20);
  store.trustStreamEnds();
  return store;
};

// The log's one writer (npm start's API) keeps the contract with its stream ends.
describeEventStoreContract('sqlite, the one writer', async () => oneWriter(tempFile()));

/**
 * What the one writer's stream ends change: a read past a stream's known end is answered from
 * memory. Another store on the same file stands for the writer the composition rules out, so each
 * case shows whether SQLite was asked.
 */
describe('stream ends of the one writer', () => {
  let file: string;
  let writer: SqliteEventStore;
  let other: SqliteEventStore;
  beforeEach(() => {
    file = tempFile();
    writer = oneWriter(file);
    other = new SqliteEventStore(file, 20);
  });
  afterEach(async () => {
    await writer.close();
    await other.close();
  });

  it('answers a read from past its own append without SQLite; a store not told it is the one writer asks', async () => {
    const stream = streamName();
    await writer.append(stream, [anEvent('Opened'), anEvent('Credited')], 'no_stream');
    await other.append(stream, [anEvent('Debited')], 1);
    expect(await writer.readStream(stream, { fromRevision: 2 })).toEqual([]);
    const plain = new SqliteEventStore(file, 20);
    expect((await plain.readStream(stream, { fromRevision: 2 })).map((e) => e.type)).toEqual(['Debited']);
    await plain.close();
    // Reads at or before the known end still go to the database.
    expect((await writer.readStream(stream, { fromRevision: 1 })).map((e) => e.type)).toEqual(['Credited', 'Debited']);
  });

  it('learns an end from a read that found events, or a whole read of a stream that has none', async () => {
    const [found, absent] = [streamName(), streamName()];
    await other.append(found, [anEvent('Opened')], 'no_stream');
    expect(await writer.readStream(found, { fromRevision: 0 })).toHaveLength(1);
    expect(await writer.readStream(absent)).toEqual([]);
    await other.append(found, [anEvent('Credited')], 0);
    await other.append(absent, [anEvent('Opened')], 'no_stream');
    expect(await writer.readStream(found, { fromRevision: 1 })).toEqual([]);
    expect(await writer.readStream(absent)).toEqual([]);
  });

  it('learns nothing from an empty read past the start, or a read its limit filled', async () => {
    const stream = streamName();
    await other.append(stream, [anEvent('Opened'), anEvent('Credited')], 'no_stream');
    expect(await writer.readStream(stream, { fromRevision: 5 })).toEqual([]);
    expect(await writer.readStream(stream, { maxCount: 1 })).toHaveLength(1);
    expect((await writer.readStream(stream, { fromRevision: 1 })).map((e) => e.type)).toEqual(['Credited']);
  });

  it('learns the end from a read its limit did not fill (a page that reached the end)', async () => {
    const stream = streamName();
    await other.append(stream, [anEvent('Opened'), anEvent('Credited')], 'no_stream');
    expect(await writer.readStream(stream, { fromRevision: 1, maxCount: 5 })).toHaveLength(1);
    await other.append(stream, [anEvent('Debited')], 1);
    expect(await writer.readStream(stream, { fromRevision: 2 })).toEqual([]);
  });

  it('forgets a stream on a conflict, so the command that met it folds again from the database', async () => {
    const stream = streamName();
    await writer.append(stream, [anEvent('Opened')], 'no_stream');
    await other.append(stream, [anEvent('Credited')], 0);
    expect(await writer.readStream(stream, { fromRevision: 1 })).toEqual([]);
    await expect(writer.append(stream, [anEvent('Debited')], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect((await writer.readStream(stream, { fromRevision: 1 })).map((e) => e.type)).toEqual(['Credited']);
    await writer.append(stream, [anEvent('Debited')], 1);
    expect(await writer.readStream(stream, { fromRevision: 3 })).toEqual([]);
  });
});
