import { systemClock, type Clock } from './clock';

/**
 * A clock a test moves. It runs with the machine's clock plus an offset (so waits that poll the
 * clock still end), until `set` pins it; `advance` moves it forward either way.
 */
export class TestClock implements Clock {
  private offset = 0;
  private pinned: number | null = null;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.pinned ?? this.base.now() + this.offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** Moves time forward by `ms` (pinned or running). */
  advance(ms: number): void {
    if (this.pinned !== null) this.pinned += ms;
    else this.offset += ms;
  }

  /** Pins time at `at` (ms since the epoch) until moved again or released. */
  set(at: number): void {
    this.pinned = at;
  }

  /** Lets a pinned clock run again from where it stands. */
  release(): void {
    if (this.pinned === null) return;
    this.offset = this.pinned - this.base.now();
    this.pinned = null;
  }
}

/** A clock that reads `read` (a test's own time variable): `clockReading(() => now)`. */
export const clockReading = (read: () => number): Clock => ({ now: read, date: () => new Date(read()) });
