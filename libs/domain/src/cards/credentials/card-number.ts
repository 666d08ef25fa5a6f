/**
 * Sandbox card numbers: the sandbox BIN, nine account digits, a Luhn check digit (16 digits).
 * The BIN sits in a range no real issuer uses for live cards here, so a sandbox number is never
 * mistaken for a real one (docs/decisions/cards.md).
 */
export const SANDBOX_BIN = '499999';

export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export const isLuhnValid = (number: string): boolean =>
  /^\d{13,19}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.slice(-1));

/** `accountDigits`: nine random digits drawn by the caller (the domain draws nothing itself). */
export function cardNumber(accountDigits: string): string {
  if (!/^\d{9}$/.test(accountDigits)) throw new Error('card numbers take nine account digits');
  const payload = SANDBOX_BIN + accountDigits;
  return payload + luhnCheckDigit(payload);
}

export const lastFour = (number: string) => number.slice(-4);

/** Virtual cards expire three years after issue, at the end of that month (UTC). */
export function virtualExpiry(now: number): { month: string; year: string } {
  const date = new Date(now);
  return {
    month: String(date.getUTCMonth() + 1).padStart(2, '0'),
    year: String((date.getUTCFullYear() + 3) % 100).padStart(2, '0'),
  };
}

/** A requested expiry (MM, YY) must be the current month or later. */
export function isFutureExpiry(month: string, year: string, now: number): boolean {
  if (!/^(0[1-9]|1[0-2])$/.test(month) || !/^\d{2}$/.test(year)) return false;
  const date = new Date(now);
  const nowIndex = (date.getUTCFullYear() % 100) * 12 + date.getUTCMonth();
  return Number(year) * 12 + Number(month) - 1 >= nowIndex;
}
