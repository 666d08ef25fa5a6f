import type { Clock } from '../clock';

/** Resolves after `ms` (at once when not positive); rejects when `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const sleepers = sleepersOf(signal);
    const wake = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      sleepers.delete(wake);
      resolve();
    }, ms);
    sleepers.add(wake);
  });
}

/**
 * Resolves once `clock` reads `at` or later. A timer may fire a millisecond before the clock
 * reaches its deadline (timers run on the monotonic clock, rounded), so it sleeps again until the
 * clock agrees: a step promised "after a second" never decides at 999 ms.
 */
export async function sleepUntil(at: number, signal: AbortSignal, clock: Clock): Promise<void> {
  if (signal.aborted) throw new Error('aborted');
  while (clock.now() < at) await sleep(Math.max(1, at - clock.now()), signal);
}

/**
 * One abort listener per signal, fanning out to a set: hundreds of sleeping steps each adding
 * their own listener made every add scan the signal's listener list.
 */
const sleepersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

function sleepersOf(signal: AbortSignal): Set<() => void> {
  let sleepers = sleepersBySignal.get(signal);
  if (!sleepers) {
    const created = new Set<() => void>();
    sleepersBySignal.set(signal, (sleepers = created));
    signal.addEventListener('abort', () => created.forEach((wake) => wake()), { once: true });
  }
  return sleepers;
}
