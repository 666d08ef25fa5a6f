import { systemClock, type Clock } from './clock';
import { onAbort, sleepUntilByTimer } from './sleep';

/** A step waiting in `TestClock.sleepUntil`. */
interface Sleeper {
  readonly at: number;
  readonly wake: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * A clock a test moves. It runs with the machine's clock plus an offset (so waits that poll the
 * clock still end), until `set` pins it; `advance` moves it forward either way. Moving it wakes
 * the sleepers whose time has come, so a test advances past a delay instead of waiting it out.
 */
export class TestClock implements Clock {
  private offset = 0;
  private pinned: number | null = null;
  private readonly sleepers = new Set<Sleeper>();

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.pinned ?? this.base.now() + this.offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  sleepUntil(at: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    return new Promise((resolve, reject) => {
      const sleeper: Sleeper = {
        at,
        wake: () => {
          forget();
          resolve();
        },
      };
      const forget = onAbort(signal, () => {
        clearTimeout(sleeper.timer);
        this.sleepers.delete(sleeper);
        reject(new Error('aborted'));
      });
      this.sleepers.add(sleeper);
      this.check(sleeper);
    });
  }

  /** Moves time forward by `ms` (pinned or running). */
  advance(ms: number): void {
    if (this.pinned !== null) this.pinned += ms;
    else this.offset += ms;
    this.checkAll();
  }

  /** Pins time at `at` (ms since the epoch) until moved again or released. */
  set(at: number): void {
    this.pinned = at;
    this.checkAll();
  }

  /** Lets a pinned clock run again from where it stands. */
  release(): void {
    if (this.pinned === null) return;
    this.offset = this.pinned - this.base.now();
    this.pinned = null;
    this.checkAll();
  }

  private checkAll(): void {
    for (const sleeper of [...this.sleepers]) this.check(sleeper);
  }

  /**
   * Wakes `sleeper` if its time has come. Otherwise a running clock also gets there by real time
   * passing, so a timer checks again then; a pinned one gets there only when a test moves it.
   */
  private check(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    sleeper.timer = undefined;
    if (this.now() >= sleeper.at) {
      this.sleepers.delete(sleeper);
      sleeper.wake();
    } else if (this.pinned === null) {
      sleeper.timer = setTimeout(() => this.check(sleeper), Math.max(1, sleeper.at - this.now()));
    }
  }
}

/**
 * A clock that reads `read` (a test's own time variable): `clockReading(() => now)`. Its sleeps
 * check `read` by real timers, so they end only once the variable has moved past their time.
 */
export const clockReading = (read: () => number): Clock => {
  const clock: Clock = {
    now: read,
    date: () => new Date(read()),
    sleepUntil: (at, signal) => sleepUntilByTimer(clock, at, signal),
  };
  return clock;
};
