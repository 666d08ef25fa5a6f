import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { anEvent, streamName } from './event-store.contract';
import { WrongExpectedRevisionError } from './event-store.port';
import { answerAppend, ParentProcessWriter, type AppendRequest } from './parent-process-writer';
import { SqliteEventStore } from './sqlite-event-store';
import { useEmbeddedStores } from '../testing/embedded-stores';

/**
 * The readers process's side of the IPC channel, wired here to the API's side in one process: what
 * the channel carries is the same structured-clone of plain objects either way.
 */
function channelTo(serve: (request: AppendRequest) => Promise<unknown>) {
  const channel = new EventEmitter() as EventEmitter & { connected: boolean; send: (m: AppendRequest, ...rest: unknown[]) => boolean };
  channel.connected = true;
  channel.send = (message) => {
    void serve(structuredClone(message)).then((reply) => channel.emit('message', structuredClone(reply)));
    return true;
  };
  return channel;
}

describe('ParentProcessWriter: the readers process commits through the API process', () => {
  const stores = useEmbeddedStores('parent-writer');

  const readersStore = (serve = (r: AppendRequest) => answerAppend(stores.store, r)) => {
    const channel = channelTo(serve);
    const committed = jest.fn();
    return { store: new SqliteEventStore(join(stores.dir, 'events.db'), 20, (onCommitted) => new ParentProcessWriter(() => (committed(), onCommitted()), channel as never)), committed, channel };
  };

  it('appends through the other side, which judges the revision in its own writer', async () => {
    const { store, committed } = readersStore();
    const stream = streamName();
    const first = await store.append(stream, [anEvent('Opened'), anEvent('Credited')], 'no_stream');
    expect(first.nextExpectedRevision).toBe(1);
    await stores.store.append(stream, [anEvent('Debited')], 1);
    await expect(store.append(stream, [anEvent('Late')], 1)).rejects.toEqual(new WrongExpectedRevisionError(stream, 1, 2));
    expect((await stores.store.readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'Credited', 'Debited']);
    // Its own subscribers are told of what it committed, as with its own writer.
    expect(committed).toHaveBeenCalledTimes(1);
    const read: string[] = [];
    for (let page = await store.readAll(); page.length; page = await store.readAll({ after: page[page.length - 1].position })) read.push(...page.map((e) => e.type));
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
    const { store } = readersStore((request) => new Promise((resolve) => (release = () => resolve(answerAppend(stores.store, request)))));
    const stream = streamName();
    const appended = store.append(stream, [anEvent('Opened')], 'no_stream');
    const closed = store.close();
    release();
    await expect(appended).resolves.toMatchObject({ nextExpectedRevision: 0 });
    await closed;
    expect((await stores.store.readStream(stream)).map((e) => e.type)).toEqual(['Opened']);
  });
});
