/**
 * Spending controls of a card (spec "Card", decisions §8). Every limit is optional (null: no
 * limit); amounts are minor units of the card's currency, counts are transactions.
 */
export type BillingCycle = 'Daily' | 'Weekly' | 'Monthly' | 'Yearly';
export const BILLING_CYCLES: readonly BillingCycle[] = ['Daily', 'Weekly', 'Monthly', 'Yearly'];
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export interface IndividualControls {
  readonly billing_cycle: BillingCycle;
  /** Weekly: a weekday name; Monthly: "1"-"28"; Yearly: "MM-DD"; Daily: ignored. */
  readonly billing_cycle_day: string;
  readonly cycle_transaction_count: number | null;
  readonly daily_amount_limit: number | null;
  readonly daily_transaction_count: number | null;
  readonly transaction_amount_limit: number | null;
}

/** The limits shared by MCC and MCC-group entries (decisions §8 names them). */
export interface EntryLimits {
  readonly open: boolean;
  /** Over the card's whole life (never resets). */
  readonly cumulative_amount_limit: number | null;
  readonly cycle_transaction_count: number | null;
  readonly daily_amount_limit: number | null;
  readonly daily_transaction_count: number | null;
  readonly transaction_amount_limit: number | null;
}

export interface MccControl extends EntryLimits {
  readonly mcc: string;
}

export interface MccGroupControl extends EntryLimits {
  readonly group_name: string;
}

export interface CardControls {
  /** Null for disposable cards (shown as `{}`): their `amount` is a one-shot limit, no cycle. */
  readonly individual: IndividualControls | null;
  readonly mcc: readonly MccControl[];
  readonly groups: readonly MccGroupControl[];
}

/** Virtual cards without a stated cycle reset on the first of each month (UTC). */
export const DEFAULT_CYCLE: Pick<IndividualControls, 'billing_cycle' | 'billing_cycle_day'> = {
  billing_cycle: 'Monthly',
  billing_cycle_day: '1',
};

/** Named groups of MCCs (datasets/mcc-groups.json): group name → its codes. */
export type MccGroups = Readonly<Record<string, readonly string[]>>;
