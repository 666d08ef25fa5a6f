import { code as iso4217 } from 'currency-codes';

/**
 * Currencies an account may hold: ISO 4217 (from the `currency-codes` list, which tracks the
 * ISO publication), plus the platform's stablecoin codes USC (USDC) and UST (USDT), which carry
 * 6 minor units like the tokens themselves.
 */
export interface CurrencyInfo {
  readonly code: string;
  readonly minor_units: number;
}

const STABLECOINS: Readonly<Record<string, number>> = { USC: 6, UST: 6 };

/** ISO's placeholder entries (gold, bond units, XTS testing, XXX) are not money an account holds. */
const isPlaceholder = (countries: readonly string[]) => countries.some((c) => c.startsWith('Zz'));

export function currencyInfo(code: string): CurrencyInfo | null {
  if (!/^[A-Z]{3}$/.test(code)) return null;
  if (code in STABLECOINS) return { code, minor_units: STABLECOINS[code] };
  const record = iso4217(code);
  if (!record || isPlaceholder(record.countries)) return null;
  return { code, minor_units: record.digits };
}

export const isSupportedCurrency = (code: unknown): code is string =>
  typeof code === 'string' && currencyInfo(code) !== null;

/** Amounts are integers of minor units: positive and exactly representable in a JS number. */
export const isValidAmount = (amount: unknown): amount is number =>
  typeof amount === 'number' && Number.isSafeInteger(amount) && amount > 0;
