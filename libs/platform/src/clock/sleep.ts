import type { Clock } from './clock';

/**
 * Resolves after `ms` of real time (at once when not positive); rejects when `signal` aborts
 * first. For waits measured in machine time (retry backoff, polling); a wait until a time of
 * day is `clock.sleepUntil`, which a test moves.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      forget();
      resolve();
    }, ms);
    const forget = onAbort(signal, () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

/**
 * Resolves once `clock` reads `at` or later, by real timers: right for a clock that runs with the
 * machine's. A timer may fire a millisecond before the clock reaches its deadline (timers run on
 * the monotonic clock, rounded), so it sleeps again until the clock agrees: a step promised
 * "after a second" never decides at 999 ms.
 */
export async function sleepUntilByTimer(clock: Clock, at: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new Error('aborted');
  while (clock.now() < at) await sleep(Math.max(1, at - clock.now()), signal);
}

/**
 * Runs `wake` when `signal` aborts; the returned function forgets it. One abort listener per
 * signal, fanning out to a set: hundreds of sleeping steps each adding their own listener made
 * every add scan the signal's listener list.
 */
export function onAbort(signal: AbortSignal, wake: () => void): () => void {
  let sleepers = sleepersBySignal.get(signal);
  if (!sleepers) {
    const created = new Set<() => void>();
    sleepersBySignal.set(signal, (sleepers = created));
    signal.addEventListener('abort', () => created.forEach((w) => w()), { once: true });
  }
  const own = sleepers;
  own.add(wake);
  return () => own.delete(wake);
}

const sleepersBySignal = new WeakMap<AbortSignal, Set<() => void>>();
