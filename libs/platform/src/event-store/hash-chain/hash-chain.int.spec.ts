import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { anEvent, streamName } from '../event-store.contract';
import { WrongExpectedRevisionError, type RecordedEvent } from '../event-store.port';
import { SqliteEventStore } from '../sqlite-event-store';
import { ChainChecker, withChain } from './chain-upcast';
import { GENESIS_HASH, canonicalJson, eventHash } from './event-hash';
import { HashChainedEventStore } from './hash-chained-event-store';

let dir: string;
let file: string;
let store: HashChainedEventStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hash-chain-'));
  file = join(dir, 'events.db');
  store = new HashChainedEventStore(new SqliteEventStore(file, 20));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const hashOf = (e: RecordedEvent) => (e.metadata as { hash?: string }).hash;
const breaks = (events: RecordedEvent[]) => {
  const checker = new ChainChecker(events[0]?.streamId ?? '');
  return events.map((e) => checker.check(e)).filter(Boolean);
};

describe('canonical serialization', () => {
  it('sorts keys at every depth, drops undefined and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('hashes the previous hash, type, data and metadata without its own hash', () => {
    const event = anEvent('Opened', { amount: 1 });
    const h = eventHash(GENESIS_HASH, event);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(eventHash(GENESIS_HASH, { ...event, metadata: { ...event.metadata, hash: 'x' } as never })).toBe(h);
    expect(eventHash('1'.repeat(64), event)).not.toBe(h);
    expect(eventHash(GENESIS_HASH, { ...event, type: 'Closed' })).not.toBe(h);
    expect(eventHash(GENESIS_HASH, { ...event, data: { amount: 2 } })).not.toBe(h);
  });
});

describe('HashChainedEventStore', () => {
  it('chains every append, in one call or several, whatever the expected revision', async () => {
    const stream = streamName();
    await store.append(stream, [anEvent('A'), anEvent('B')], 'no_stream');
    await store.append(stream, [anEvent('C')], 1);
    await store.append(stream, [anEvent('D')], 'any');
    await store.append(stream, [anEvent('E')], 'stream_exists');
    const fresh = new HashChainedEventStore(new SqliteEventStore(file, 20));
    await fresh.append(stream, [anEvent('F')], 4); // a cold tail cache reads the last event
    const events = await fresh.inner.readStream(stream);
    await fresh.close();
    expect(events.map((e) => e.type)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(breaks(events)).toEqual([]);
    expect(hashOf(events[0])).toBe(eventHash(GENESIS_HASH, events[0]));
    expect(hashOf(events[5])).toBe(eventHash(hashOf(events[4])!, events[5]));
  });

  it('appends with `any` or `stream_exists` made at once are chained one after the other (each conflict read again), and `stream_exists` on no stream fails', async () => {
    const stream = streamName();
    await store.append(stream, [anEvent('A')], 'no_stream');
    await Promise.all(
      ['B', 'C', 'D', 'E'].map((type, i) => store.append(stream, [anEvent(type)], i % 2 ? 'any' : 'stream_exists')),
    );
    const events = await store.inner.readStream(stream);
    expect([events.length, breaks(events)]).toEqual([5, []]);
    await expect(store.append(streamName(), [anEvent('A')], 'stream_exists')).rejects.toMatchObject({
      actual: 'no_stream',
    });
  });

  it('a conflicting append fails and leaves the chain whole', async () => {
    const stream = streamName();
    await store.append(stream, [anEvent('A')], 'no_stream');
    await expect(store.append(stream, [anEvent('B')], 5)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await store.append(stream, [anEvent('B')], 0);
    expect(breaks(await store.inner.readStream(stream))).toEqual([]);
  });

  it('events older than chains get theirs from the upcaster, and new events chain on it', async () => {
    const stream = streamName();
    const raw = new SqliteEventStore(file, 20);
    await raw.append(stream, [anEvent('Legacy1'), anEvent('Legacy2')], 'no_stream');
    await raw.close();
    await store.append(stream, [anEvent('New')], 1);
    const events = withChain(await store.inner.readStream(stream));
    expect((await store.readStream(stream)).map(hashOf)).toEqual(events.map(hashOf));
    expect(events.map(hashOf).every((h) => /^[0-9a-f]{64}$/.test(h!))).toBe(true);
    expect(hashOf(events[1])).toBe(withChain(events.slice(0, 2).map(stripHash))[1].metadata['hash' as never]);
    expect(breaks(events)).toEqual([]);
  });

  it('the checker names the revision of an altered event and of a removed one', async () => {
    const stream = streamName();
    await store.append(stream, [anEvent('A'), anEvent('B', { amount: 1 }), anEvent('C')], 'no_stream');
    const db = new Database(file);
    db.prepare(`UPDATE events SET data = '{"amount":2}' WHERE stream_id = ? AND revision = 1`).run(stream);
    expect(breaks(await store.inner.readStream(stream))).toEqual([
      { streamId: stream, revision: 1, reason: 'hash_mismatch' },
    ]);
    db.prepare('DELETE FROM events WHERE stream_id = ? AND revision = 1').run(stream);
    db.close();
    expect(breaks(await store.inner.readStream(stream))).toEqual([
      { streamId: stream, revision: 1, reason: 'missing_revision' },
    ]);
  });
});

describe("ChainChecker: an event without a hash after its stream's chain started", () => {
  it('is a break (hash_missing) naming where the chain started, whether or not its content changed', async () => {
    const stream = streamName();
    await store.append(stream, [anEvent('A'), anEvent('B', { amount: 1 }), anEvent('C')], 'no_stream');
    const db = new Database(file);
    db.prepare(`UPDATE events SET metadata = json_remove(metadata, '$.hash') WHERE stream_id = ? AND revision = 1`).run(
      stream,
    );
    expect(breaks(await store.inner.readStream(stream))).toEqual([
      { streamId: stream, revision: 1, reason: 'hash_missing', chainStart: 0 },
    ]);
    // The last event altered with its hash removed: its upcast hash is recomputed from what it says, so only this rule sees it.
    db.prepare(
      `UPDATE events SET data = '{"forged":true}', metadata = json_remove(metadata, '$.hash') WHERE stream_id = ? AND revision = 2`,
    ).run(stream);
    db.close();
    expect(breaks(await store.inner.readStream(stream)).map((b) => b && [b.revision, b.reason])).toEqual([
      [1, 'hash_missing'],
      [2, 'hash_missing'],
    ]);
  });

  it('events older than chains before the first hashed one are not', async () => {
    const stream = streamName();
    const raw = new SqliteEventStore(file, 20);
    await raw.append(stream, [anEvent('Legacy1'), anEvent('Legacy2')], 'no_stream');
    await raw.close();
    await store.append(stream, [anEvent('New')], 1);
    const checker = new ChainChecker(stream);
    expect((await store.inner.readStream(stream)).map((e) => checker.check(e))).toEqual([null, null, null]);
    expect(checker.hash).toBe(hashOf((await store.inner.readStream(stream))[2]));
  });
});

function stripHash(event: RecordedEvent): RecordedEvent {
  const { hash: _h, ...metadata } = event.metadata as RecordedEvent['metadata'] & { hash?: string };
  return { ...event, metadata };
}

describe('the tails cache', () => {
  it('stays within its byte budget however many streams are written, keeping the most recent', async () => {
    let position = 0;
    const inner = {
      append: async () => ({ nextExpectedRevision: 0, position: ++position }),
    } as unknown as SqliteEventStore;
    const chained = new HashChainedEventStore(inner);
    const streams = Array.from(
      { length: 30_000 },
      (_, i) => `transfer-acc_01M8E24PRB9SY2NFESYJNQCCTH-payout-reference-${i}`,
    );
    for (const stream of streams) await chained.append(stream, [anEvent('Opened', {})], 'no_stream');
    const { tails, tailsBytes } = chained as unknown as { tails: Map<string, unknown>; tailsBytes: number };
    expect(tailsBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(tails.size).toBeGreaterThan(1_000);
    expect(tails.size).toBeLessThan(streams.length);
    expect(tails.has(streams[streams.length - 1])).toBe(true);
    expect(tails.has(streams[0])).toBe(false);
  });
});
