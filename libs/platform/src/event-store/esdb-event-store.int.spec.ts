import { describeEventStoreContract } from './event-store.contract';
import { EsdbEventStore, toUuid } from './esdb-event-store';

const url = process.env.EVENTSTORE_URL;

if (url) {
  describeEventStoreContract('eventstoredb', async () => new EsdbEventStore(url), 60_000);
} else {
  describe('EventStore contract: eventstoredb', () => {
    console.warn('EventStore contract: eventstoredb skipped: EVENTSTORE_URL is not set (e.g. esdb://localhost:2113?tls=false)');
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
