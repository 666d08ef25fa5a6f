import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * Cryptographic randomness drawn from a pooled buffer. The ulid package's default asks the OS
 * for one byte per character (16 calls an id), which showed up as a hot spot under load.
 * A byte / 256 maps onto the 32-letter alphabet without bias (the package floors × 32).
 */
function pooledRandom(): number {
  if (offset >= pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  return pool[offset++] / 256;
}

/** ULIDs for this process: time-ordered, and strictly increasing within one millisecond. */
export const ulid: () => string = monotonicFactory(pooledRandom);
