import { clockReading, TestClock } from '.';

describe('TestClock', () => {
  const base = (at: { t: number }) => clockReading(() => at.t);

  it('runs with its base clock, plus what a test advanced', () => {
    const at = { t: 1_000 };
    const clock = new TestClock(base(at));
    clock.advance(500);
    at.t = 2_000;
    expect(clock.now()).toBe(2_500);
    expect(clock.date()).toEqual(new Date(2_500));
  });

  it('stands still where set, moves when advanced, and runs again from there when released', () => {
    const at = { t: 1_000 };
    const clock = new TestClock(base(at));
    clock.set(10_000);
    at.t = 5_000;
    expect(clock.now()).toBe(10_000);
    clock.advance(1_000);
    expect(clock.now()).toBe(11_000);
    clock.release();
    at.t = 5_100;
    expect(clock.now()).toBe(11_100);
  });

  describe('sleepUntil', () => {
    const signal = new AbortController().signal;
    /** Lets every settled promise's reactions run. */
    const flush = () => new Promise((r) => setImmediate(r));
    const track = (p: Promise<void>) => {
      const s = { woke: false, failed: undefined as unknown };
      p.then(
        () => (s.woke = true),
        (e: unknown) => (s.failed = e),
      );
      return s;
    };

    it('wakes a sleeper when a test advances a pinned clock to its time, not before', async () => {
      const clock = new TestClock(base({ t: 0 }));
      clock.set(1_000);
      const sleeper = track(clock.sleepUntil(2_000, signal));
      clock.advance(999);
      await flush();
      expect(sleeper.woke).toBe(false);
      clock.advance(1);
      await flush();
      expect(sleeper.woke).toBe(true);
    });

    it('wakes the sleepers whose time a set reaches and keeps the later ones asleep', async () => {
      const clock = new TestClock(base({ t: 0 }));
      clock.set(0);
      const early = track(clock.sleepUntil(100, signal));
      const late = track(clock.sleepUntil(10_000, signal));
      clock.set(5_000);
      await flush();
      expect([early.woke, late.woke]).toEqual([true, false]);
      clock.set(10_000);
      await flush();
      expect(late.woke).toBe(true);
    });

    it('resolves at once for a time already passed', async () => {
      const clock = new TestClock(base({ t: 5_000 }));
      await expect(clock.sleepUntil(5_000, signal)).resolves.toBeUndefined();
    });

    it('wakes a running clock by real time passing too (it runs with the machine)', async () => {
      const clock = new TestClock();
      const at = clock.now() + 5;
      await clock.sleepUntil(at, signal);
      expect(clock.now()).toBeGreaterThanOrEqual(at);
    });

    it('wakes, when advanced, a sleeper a running clock would reach only in an hour', async () => {
      const clock = new TestClock();
      const sleeper = clock.sleepUntil(clock.now() + 3_600_000, signal);
      clock.advance(3_600_000);
      await expect(sleeper).resolves.toBeUndefined();
    });

    it('rejects its sleepers when their signal aborts, and an advance after that wakes nothing', async () => {
      const clock = new TestClock(base({ t: 0 }));
      clock.set(0);
      const abort = new AbortController();
      const sleeper = track(clock.sleepUntil(1_000, abort.signal));
      abort.abort();
      await flush();
      expect(sleeper.failed).toEqual(new Error('aborted'));
      clock.advance(1_000);
      await flush();
      expect(sleeper.woke).toBe(false);
      await expect(clock.sleepUntil(0, abort.signal)).rejects.toThrow('aborted');
    });
  });
});
