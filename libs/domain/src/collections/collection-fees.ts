import { COLLECTION_PAYMENT_TYPES, type CollectionPaymentType } from './intent-action/intent-action.events';

/** Basis points of the amount per collection payment type (decisions §7, `COLLECTION_FEES`). */
export type CollectionFeeSchedule = Readonly<Record<CollectionPaymentType, number>>;

export const DEFAULT_COLLECTION_FEES: CollectionFeeSchedule = { 'card-acq': 290, 'walletpay-acq': 250 };

const isCollectionPaymentType = (value: string): value is CollectionPaymentType =>
  (COLLECTION_PAYMENT_TYPES as readonly string[]).includes(value);

/** Rounded up to a whole minor unit (decisions §7); BigInt keeps large amounts exact. */
export function collectionFee(
  schedule: CollectionFeeSchedule,
  paymentType: CollectionPaymentType,
  amount: number,
): number {
  return Number((BigInt(amount) * BigInt(schedule[paymentType]) + 9_999n) / 10_000n);
}

/** The schedule from configuration; types left out keep their default, unknown ones stop the start. */
export function collectionFeesFrom(table: Readonly<Record<string, number>>): CollectionFeeSchedule {
  const schedule: Record<string, number> = { ...DEFAULT_COLLECTION_FEES };
  for (const [type, bps] of Object.entries(table)) {
    if (!isCollectionPaymentType(type)) throw new Error(`COLLECTION_FEES: unknown payment type "${type}"`);
    if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
      throw new Error(`COLLECTION_FEES: ${type} needs 0-10000 basis points, got ${bps}`);
    schedule[type] = bps;
  }
  return schedule as CollectionFeeSchedule;
}
