import { randomBytes, randomInt } from 'node:crypto';
import type { RandomSource } from '@app/domain/accounts';

/** Injected so tests can force collisions; production draws from the CSPRNG. */
export const ACCOUNT_RANDOM = Symbol('ACCOUNT_RANDOM');

export const cryptoRandom: RandomSource = {
  digits: (count) => Array.from({ length: count }, () => String(randomInt(10))).join(''),
  bytes: (count) => new Uint8Array(randomBytes(count)),
};
