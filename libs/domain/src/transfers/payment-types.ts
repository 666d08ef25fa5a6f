/** The spec's four payment types; a payment detail's method must equal the transfer's type. */
export const PAYMENT_TYPES = ['bank-transfer', 'momo-transfer', 'stablecoin-transfer', 'book-transfer'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const isPaymentType = (value: unknown): value is PaymentType =>
  typeof value === 'string' && (PAYMENT_TYPES as readonly string[]).includes(value);

/** Stablecoin transfers move USDC or USDT only (spec: "the source account must hold a stablecoin balance"). */
export const STABLECOIN_CURRENCIES: readonly string[] = ['USC', 'UST'];

/**
 * Fees in basis points of the amount, per payment type. Basis points rather than flat amounts
 * because one schedule serves every currency, and minor units differ (JPY 0, USD 2, USC 6).
 */
export type FeeSchedule = Readonly<Record<PaymentType, number>>;

export const DEFAULT_FEE_SCHEDULE: FeeSchedule = {
  'bank-transfer': 25,
  'momo-transfer': 150,
  'stablecoin-transfer': 10,
  'book-transfer': 0,
};

/**
 * The fee for an amount, rounded up to a whole minor unit (a platform never charges a fraction,
 * and rounding down would let many tiny transfers go free). BigInt keeps large amounts exact.
 */
export function transferFee(schedule: FeeSchedule, paymentType: PaymentType, amount: number): number {
  const bps = BigInt(schedule[paymentType]);
  return Number((BigInt(amount) * bps + 9_999n) / 10_000n);
}

/** The schedule from configuration (basis points by type name); types left out keep their default. */
export function feeScheduleFrom(table: Readonly<Record<string, number>>): FeeSchedule {
  const schedule: Record<string, number> = { ...DEFAULT_FEE_SCHEDULE };
  for (const [type, bps] of Object.entries(table)) {
    if (!isPaymentType(type)) throw new Error(`TRANSFER_FEES: unknown payment type "${type}"`);
    if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
      throw new Error(`TRANSFER_FEES: ${type} needs 0-10000 basis points, got ${bps}`);
    schedule[type] = bps;
  }
  return schedule as FeeSchedule;
}
