// The production drivers are not loaded on the embedded stores (issue 26: they took about 30 MB of
// each process's memory there). Each is replaced by a module that fails when loaded.
jest.mock('mongodb', () => {
  throw new Error('mongodb was loaded');
});
jest.mock('kafkajs', () => {
  throw new Error('kafkajs was loaded');
});
jest.mock('@eventstore/db-client', () => {
  throw new Error('@eventstore/db-client was loaded');
});

describe('adapters on the embedded stores', () => {
  it('load no production driver, and telling a store outage from a bug does not either', () => {
    const { describeAdapters } = require('./adapters') as typeof import('./adapters');
    const { isStoreUnavailable } = require('./store-unavailable') as typeof import('./store-unavailable');
    expect(describeAdapters({} as Parameters<typeof describeAdapters>[0])).toEqual({
      event_store: 'sqlite',
      read_store: 'sqlite',
      bus: 'sqlite',
    });
    expect(isStoreUnavailable(new Error('a bug'))).toBe(false);
    expect(isStoreUnavailable(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(
      true,
    );
  });
});
