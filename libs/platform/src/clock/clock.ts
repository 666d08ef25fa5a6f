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
}

export const CLOCK = Symbol('CLOCK');

/** The machine's clock: what every process runs on. */
export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
};
