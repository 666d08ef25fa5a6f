/**
 * Formats of the numbers the platform issues, as pure functions over a random source, so the
 * domain stays deterministic in tests and the application decides where randomness comes from.
 */
export interface RandomSource {
  /** `count` decimal digits, each uniformly drawn. */
  digits(count: number): string;
  bytes(count: number): Uint8Array;
}

/** Luhn (mod 10) check digit for a payload of digits. */
export function luhnCheckDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = Number(payload[payload.length - 1 - i]);
    // The rightmost payload digit sits beside the check digit, so it is the one doubled.
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export const isLuhnValid = (value: string) =>
  /^\d{2,}$/.test(value) && luhnCheckDigit(value.slice(0, -1)) === value.slice(-1);

/** Service BAN: 10 digits, no leading zero, the last a Luhn check digit over the first nine. */
export function newServiceBan(random: RandomSource): string {
  const payload = String(1 + (Number(random.digits(1)) % 9)) + random.digits(8);
  return payload + luhnCheckDigit(payload);
}

export const isValidServiceBan = (value: string) => /^[1-9]\d{9}$/.test(value) && isLuhnValid(value);

/** CBN NUBAN: weights 3,7,3 over the 3-digit bank code and the 9-digit serial; check = 10 − sum mod 10. */
export function nubanCheckDigit(bankCode: string, serial: string): string {
  const digits = bankCode + serial;
  const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  return String((10 - (sum % 10)) % 10);
}

export const isValidNuban = (bankCode: string, nuban: string) =>
  /^\d{3}$/.test(bankCode) && /^\d{10}$/.test(nuban) && nubanCheckDigit(bankCode, nuban.slice(0, 9)) === nuban[9];

/** ABA routing numbers: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidAbaRouting(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const w = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return w.reduce((acc, weight, i) => acc + weight * Number(value[i]), 0) % 10 === 0;
}

export const evmAddress = (random: RandomSource) => '0x' + Buffer.from(random.bytes(20)).toString('hex');
export const isEvmAddress = (value: string) => /^0x[0-9a-f]{40}$/.test(value);

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin-alphabet base58, as Solana writes its 32-byte public keys. */
export function base58(bytes: Uint8Array): string {
  let n = BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'));
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

export const solanaAddress = (random: RandomSource) => base58(random.bytes(32));
export const isSolanaAddress = (value: string) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value);
