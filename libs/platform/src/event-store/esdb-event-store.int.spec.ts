import { describeEventStoreContract } from './event-store.contract';
import { EsdbEventStore, readStreamPosition, toUuid } from './esdb-event-store';

const url = process.env.EVENTSTORE_URL;

if (url) {
  describeEventStoreContract('eventstoredb', async () => new EsdbEventStore(url), 60_000);
} else {
  describe('EventStore contract: eventstoredb', () => {
    console.warn(
      'EventStore contract: eventstoredb skipped: EVENTSTORE_URL is not set (e.g. esdb://localhost:2113?tls=false)',
    );
    it.skip('skipped: set EVENTSTORE_URL to run', () => undefined);
  });
}

describe('toUuid', () => {
  it('maps a ULID onto the UUID with the same 128 bits, and keeps a UUID as it is', () => {
    expect(toUuid('00000000000000000000000001')).toBe('00000000-0000-0000-0000-000000000001');
    expect(toUuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    expect(toUuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('01563e3a-b5d3-d676-4c61-efb99302bd5b');
    expect(toUuid('6F9619FF-8B86-D011-B42D-00C04FC964FF')).toBe('6f9619ff-8b86-d011-b42d-00c04fc964ff');
    expect(() => toUuid('not-an-id')).toThrow('neither a ULID nor a UUID');
  });
});

describe('readStreamPosition (the global position of an event read from its stream)', () => {
  const NO_POSITION = 2n ** 64n - 1n;
  const recorded = (commit?: bigint) =>
    ({
      streamId: 's-1',
      revision: 3n,
      position: commit === undefined ? undefined : { commit, prepare: commit },
    }) as never;

  it("takes the recorded event's commit position, else the resolved event's", () => {
    expect(readStreamPosition({ event: recorded(4242n), commitPosition: 4242n })).toBe(4242);
    expect(readStreamPosition({ event: recorded(NO_POSITION), commitPosition: 777n })).toBe(777);
    expect(readStreamPosition({ event: recorded(), commitPosition: 778n })).toBe(778);
  });

  it('refuses a server that gives none (before EventStoreDB 22.6), never reading it as position 0', () => {
    expect(() => readStreamPosition({ event: recorded(NO_POSITION) })).toThrow(
      'EventStoreDB gave no commit position for s-1@3 on a stream read',
    );
    expect(() => readStreamPosition({ event: recorded(), commitPosition: NO_POSITION })).toThrow('no commit position');
  });
});
