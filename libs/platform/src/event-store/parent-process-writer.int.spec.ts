import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { anEvent, streamName } from './event-store.contract';
import { WrongExpectedRevisionError } from './event-store.port';
import { answerAppend, ParentProcessWriter, type AppendRequest } from './parent-process-writer';
import { SqliteEventStore } from './sqlite-event-store';
import { useEmbeddedStores } from '../testing/embedded-stores';

/**
 * The worker's side of the IPC channel, wired here to the API's side in one process: what
 * the channel carries is the same structured-clone of plain objects either way.
 */
function channelTo(serve: (request: AppendRequest) => Promise<unknown>) {
  const channel = new EventEmitter() as EventEmitter & {
    connected: boolean;
    send: (m: AppendRequest, ...rest: unknown[]) => boolean;
  };
  channel.connected = true;
  channel.send = (message) => {
    void serve(structuredClone(message)).then((reply) => channel.emit('message', structuredClone(reply)));
    return true;
  };
  return channel;
}

describe('ParentProcessWriter: the worker commits through the API process', () => {
  const stores = useEmbeddedStores('parent-writer');

  const readersStore = (serve = (r: AppendRequest) => answerAppend(stores.store, r), maxInFlight = 64) => {
    const channel = channelTo(serve);
    const committed = jest.fn();
    return {
      store: new SqliteEventStore(
        join(stores.dir, 'events.db'),
        20,
        (onCommitted) => new ParentProcessWriter(() => (committed(), onCommitted()), channel as never, maxInFlight),
      ),
      committed,
      channel,
    };
  };

  it('appends through the other side, which judges the revision in its own writer', async () => {
    const { store, committed } = readersStore();
    const stream = streamName();
    const first = await store.append(stream, [anEvent('Opened'), anEvent('Credited')], 'no_stream');
    expect(first.nextExpectedRevision).toBe(1);
    await stores.store.append(stream, [anEvent('Debited')], 1);
    await expect(store.append(stream, [anEvent('Late')], 1)).rejects.toEqual(
      new WrongExpectedRevisionError(stream, 1, 2),
    );
    expect((await stores.store.readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'Credited', 'Debited']);
    // Its own subscribers are told of what it committed, as with its own writer.
    expect(committed).toHaveBeenCalledTimes(1);
    const read: string[] = [];
    for (
      let page = await store.readAll();
      page.length;
      page = await store.readAll({ after: page[page.length - 1].position })
    )
      read.push(...page.map((e) => e.type));
    expect(read).toEqual(['Opened', 'Credited', 'Debited']);
    await store.close();
  });

  it('fails every append in flight when the API goes away, and refuses new ones', async () => {
    const { store, channel } = readersStore(() => new Promise(() => undefined));
    const inFlight = store.append(streamName(), [anEvent('Opened')], 'no_stream');
    channel.connected = false;
    channel.emit('disconnect');
    await expect(inFlight).rejects.toThrow('the API process that commits the log has gone');
    await expect(store.append(streamName(), [anEvent('Opened')], 'no_stream')).rejects.toThrow('no API process');
    await store.close();
  });

  it('waits on close for appends the API has accepted', async () => {
    let release: () => void = () => undefined;
    const { store } = readersStore(
      (request) => new Promise((resolve) => (release = () => resolve(answerAppend(stores.store, request)))),
    );
    const stream = streamName();
    const appended = store.append(stream, [anEvent('Opened')], 'no_stream');
    const closed = store.close();
    release();
    await expect(appended).resolves.toMatchObject({ nextExpectedRevision: 0 });
    await closed;
    expect((await stores.store.readStream(stream)).map((e) => e.type)).toEqual(['Opened']);
  });

  it('has at most its bound of appends with the API at once; the rest wait in the worker, in order', async () => {
    const held: Array<() => void> = [];
    const { store } = readersStore(
      (request) => new Promise((resolve) => held.push(() => resolve(answerAppend(stores.store, request)))),
      2,
    );
    const streams = Array.from({ length: 5 }, () => streamName());
    const appends = streams.map((s) => store.append(s, [anEvent('Opened')], 'no_stream'));
    // The bound reached (waited for, not slept on: issue 32), then a few turns in which a third would show.
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
    for (let turn = 0; turn < 10; turn++) await new Promise((r) => setImmediate(r));
    expect(held).toHaveLength(2);
    for (let answered = 0; answered < 5; answered++) {
      while (held.length <= answered) await new Promise((r) => setTimeout(r, 5));
      expect(held.length - answered).toBeLessThanOrEqual(2);
      held[answered]();
    }
    await expect(Promise.all(appends)).resolves.toHaveLength(5);
    const log = await stores.store.readAll();
    expect(log.map((e) => e.streamId)).toEqual(streams);
    await store.close();
  });

  it("commits the worker's appends behind the API's own when both wait for the writer", async () => {
    // One append in the writer; meanwhile the worker's and the API's queue up, the worker's first.
    const first = stores.store.append(streamName(), [anEvent('First')], 'no_stream');
    const behind = [0, 1, 2].map(() => stores.store.appendBehind(streamName(), [anEvent('Worker')], 'no_stream'));
    const own = [0, 1, 2].map(() => stores.store.append(streamName(), [anEvent('Api')], 'no_stream'));
    expect(stores.store.pendingAppends).toEqual({ own: 4, behind: 3 });
    await Promise.all([first, ...behind, ...own]);
    expect((await stores.store.readAll()).map((e) => e.type)).toEqual([
      'First',
      'Api',
      'Api',
      'Api',
      'Worker',
      'Worker',
      'Worker',
    ]);
    expect(stores.store.pendingAppends).toEqual({ own: 0, behind: 0 });
  });
});
