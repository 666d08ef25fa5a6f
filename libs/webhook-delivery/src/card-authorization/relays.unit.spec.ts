import { systemClock } from '@app/platform/clock';
import { AuthorizationRelays, type RelayedRequest } from './relays';

describe('AuthorizationRelays (npm run listen, decisions §16)', () => {
  const request = (id: string): RelayedRequest => ({ id, payload: `{"id":"${id}"}` });

  it('relays sandbox requests of an organization with an open session, never live ones', () => {
    const relays = new AuthorizationRelays(systemClock);
    const close = relays.open('org_1', async () => undefined);
    expect([
      relays.relays('org_1', 'sandbox'),
      relays.relays('org_1', 'live'),
      relays.relays('org_2', 'sandbox'),
    ]).toEqual([true, false, false]);
    close();
    expect(relays.relays('org_1', 'sandbox')).toBe(false);
  });

  it('sends to the newest session and resolves with the answer posted back, once', async () => {
    const relays = new AuthorizationRelays(systemClock);
    const older: RelayedRequest[] = [];
    const newer: RelayedRequest[] = [];
    relays.open('org_1', async (r) => void older.push(r));
    relays.open('org_1', async (r) => void newer.push(r));
    const asked = relays.ask('org_1', request('evt_1'), 60_000);
    await Promise.resolve();
    expect([older, newer]).toEqual([[], [request('evt_1')]]);
    expect(relays.answer('org_2', 'evt_1', { status: 200, body: 'x' })).toBe(false);
    expect(relays.answer('org_1', 'evt_1', { status: 200, body: '{"approved":true}' })).toBe(true);
    expect(await asked).toMatchObject({ response: { status_code: 200, body: '{"approved":true}' }, error: null });
    expect(relays.answer('org_1', 'evt_1', { status: 200, body: '{"approved":false}' })).toBe(false);
  });

  it('past the timeout there is no answer (the fallback decides) and a late one is refused', async () => {
    jest.useFakeTimers();
    try {
      const relays = new AuthorizationRelays(systemClock);
      relays.open('org_1', async () => undefined);
      const asked = relays.ask('org_1', request('evt_2'), 2_000);
      await jest.advanceTimersByTimeAsync(2_000);
      expect(await asked).toMatchObject({ response: null, error: 'timeout after 2000 ms (listen relay)' });
      expect(relays.answer('org_1', 'evt_2', { status: 200, body: '{}' })).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a session that ends leaves its waiting requests with no answer at once (the fallback decides)', async () => {
    const relays = new AuthorizationRelays(systemClock);
    const close = relays.open('org_1', async () => undefined);
    const asked = relays.ask('org_1', request('evt_3'), 60_000);
    await Promise.resolve();
    close();
    expect(await asked).toMatchObject({ response: null, error: 'the listen session ended' });
    expect(relays.answer('org_1', 'evt_3', { status: 200, body: '{}' })).toBe(false);
  });
});
