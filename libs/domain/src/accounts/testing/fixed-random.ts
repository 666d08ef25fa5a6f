import type { RandomSource } from '../account-numbers';

/** A deterministic RandomSource for tests: a tiny LCG, so sequences differ but repeat per seed. */
export function seededRandom(seed = 1): RandomSource {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  return {
    digits: (count) => Array.from({ length: count }, () => String(next() % 10)).join(''),
    bytes: (count) => Uint8Array.from({ length: count }, () => next() >>> 24),
  };
}
