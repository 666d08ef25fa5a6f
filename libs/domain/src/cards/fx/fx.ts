/** The sandbox rate table (datasets/fx-rates.json): units of each currency per one `base` unit. */
export interface FxTable {
  readonly date: string;
  readonly base: string;
  readonly source: string;
  readonly rates: Readonly<Record<string, number>>;
}

export interface FxQuote {
  /** Account-currency units per one card-currency unit. */
  readonly rate: number;
  readonly account_currency: string;
  /** The amount in the account currency's minor units, rounded half up. */
  readonly account_amount: number;
}

/** Null when either currency is not in the table. Rates are rounded to 8 decimals (what is shown is what is used). */
export function fxRate(table: FxTable, from: string, to: string): number | null {
  if (from === to) return 1;
  const a = table.rates[from];
  const b = table.rates[to];
  if (!a || !b) return null;
  return Math.round((b / a) * 1e8) / 1e8;
}

/**
 * Converts minor units to minor units: amount / 10^fromUnits × rate × 10^toUnits, half up. The
 * epsilon keeps a binary-float x.4999999 that is really x.5 rounding up.
 */
export function convert(amount: number, rate: number, fromUnits: number, toUnits: number): number {
  const exact = (amount * rate * 10 ** toUnits) / 10 ** fromUnits;
  return Math.floor(exact + 0.5 + 1e-9);
}
