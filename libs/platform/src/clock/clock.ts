import { sleepUntilByTimer } from './sleep';

/**
 * The one source of wall-clock time outside the domain (which takes time in its commands).
 * Injected (`@Inject(CLOCK)` in Nest providers, a constructor argument elsewhere), so tests move
 * time instead of sleeping. Durations measured for metrics use `performance.now()`: that is
 * measurement, not the clock, and the architecture rule allows it.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** `now()` as a Date. */
  date(): Date;
  /**
   * Resolves once `now()` reads `at` or later (at once if it does); rejects when `signal` aborts
   * first. The clock's own, so a step waiting for a time wakes when a test moves the clock.
   */
  sleepUntil(at: number, signal: AbortSignal): Promise<void>;
}

export const CLOCK = Symbol('CLOCK');

/** The machine's clock: what every process runs on. */
export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
  sleepUntil: (at, signal) => sleepUntilByTimer(systemClock, at, signal),
};
