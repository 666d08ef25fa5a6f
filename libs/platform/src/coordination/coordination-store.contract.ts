import { ulid } from 'ulid';
import { clockReading, type Clock } from '../clock';
import type { CoordinationStore } from './coordination-store.port';

/** A clock the test moves by hand, so lease expiry is exact rather than slept for. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

/**
 * What every CoordinationStore adapter owes the process managers: checkpoints that never move
 * back, and leases that one holder at a time has. Two store instances stand for two processes;
 * names are fresh per test, so the suite also runs against a shared server.
 */
export function describeCoordinationStoreContract(
  name: string,
  open: (clock: Clock) => Promise<CoordinationStore>,
  timeoutMs = 20_000,
): void {
  describe(`CoordinationStore contract: ${name}`, () => {
    let clock: TestClock;
    let one: CoordinationStore;
    let two: CoordinationStore;
    let key: string;
    beforeEach(async () => {
      let t = 1_700_000_000_000;
      clock = { now: () => t, advance: (ms) => void (t += ms) };
      [one, two] = await Promise.all([open(clockReading(() => clock.now())), open(clockReading(() => clock.now()))]);
      key = `test-${ulid()}`;
    }, timeoutMs);
    afterEach(() => Promise.all([one.close(), two.close()]), timeoutMs);
    jest.setTimeout(timeoutMs);

    describe('checkpoints', () => {
      it('reads 0 before the first save, then the saved position from any process', async () => {
        expect(await one.getCheckpoint(key)).toBe(0);
        await one.saveCheckpoint(key, 7);
        expect(await two.getCheckpoint(key)).toBe(7);
        await two.saveCheckpoint(key, 12);
        expect(await one.getCheckpoint(key)).toBe(12);
      });

      it('never moves back: a lower save after a higher one leaves the higher', async () => {
        await one.saveCheckpoint(key, 40);
        await two.saveCheckpoint(key, 25);
        await one.saveCheckpoint(key, 40);
        expect(await one.getCheckpoint(key)).toBe(40);
        await Promise.all([3, 90, 41, 60, 2].map((p, i) => (i % 2 ? one : two).saveCheckpoint(key, p)));
        expect(await two.getCheckpoint(key)).toBe(90);
      });

      it('keeps names apart', async () => {
        await one.saveCheckpoint(`${key}-a`, 5);
        expect(await one.getCheckpoint(`${key}-b`)).toBe(0);
      });
    });

    describe('leases', () => {
      it('two contenders: exactly one holds it, and the other cannot take it while it lasts', async () => {
        const won = await Promise.all([one.acquire(key, 'a', 1_000), two.acquire(key, 'b', 1_000)]);
        expect(won.filter(Boolean)).toHaveLength(1);
        const [winner, loser] = won[0] ? ['a', 'b'] : ['b', 'a'];
        clock.advance(999);
        expect(await two.acquire(key, loser, 1_000)).toBe(false);
        expect(await one.acquire(key, winner, 1_000)).toBe(true);
      });

      it('renewing keeps it past the first expiry; expiry without renewal hands it over', async () => {
        expect(await one.acquire(key, 'a', 1_000)).toBe(true);
        clock.advance(800);
        expect(await one.acquire(key, 'a', 1_000)).toBe(true);
        clock.advance(800);
        expect(await two.acquire(key, 'b', 1_000)).toBe(false);
        clock.advance(200);
        expect(await two.acquire(key, 'b', 1_000)).toBe(true);
        // The old holder finds it gone when it tries to renew.
        expect(await one.acquire(key, 'a', 1_000)).toBe(false);
      });

      it('a release hands it over at once; a release by someone else changes nothing', async () => {
        expect(await one.acquire(key, 'a', 60_000)).toBe(true);
        await two.release(key, 'b');
        expect(await two.acquire(key, 'b', 60_000)).toBe(false);
        await one.release(key, 'a');
        expect(await two.acquire(key, 'b', 60_000)).toBe(true);
        expect(await one.acquire(key, 'a', 60_000)).toBe(false);
      });

      it('keeps leases of different names apart', async () => {
        expect(await one.acquire(`${key}-x`, 'a', 1_000)).toBe(true);
        expect(await two.acquire(`${key}-y`, 'b', 1_000)).toBe(true);
      });
    });
  });
}
