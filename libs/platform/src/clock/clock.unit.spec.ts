import { TestClock, type Clock } from '.';

describe('TestClock', () => {
  const base = (at: { t: number }): Clock => ({ now: () => at.t, date: () => new Date(at.t) });

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
});
