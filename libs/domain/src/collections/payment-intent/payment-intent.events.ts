export type PaymentIntentStatus = 'requires_action' | 'processing' | 'completed' | 'cancelled' | 'failed';
export const PAYMENT_INTENT_STATUSES: readonly PaymentIntentStatus[] = ['requires_action', 'processing', 'completed', 'cancelled', 'failed'];

/** The payment intent as the API shows it (spec "Payment intent"). */
export interface PaymentIntentRecord {
  readonly id: string;
  readonly currency: string;
  readonly amount: number;
  readonly reference: string;
  readonly description: string | null;
  readonly status: PaymentIntentStatus;
  readonly status_reason: string | null;
  readonly entity_id: string;
  readonly account_id: string;
  /** The action that confirmed it; null until confirmed. */
  readonly intent_action_id: string | null;
  readonly created: number;
  readonly updated: number;
}

/** A refund of a completed intent (decisions §7). */
export interface RefundRecord {
  readonly id: string;
  readonly payment_intent_id: string;
  readonly account_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly reason: string | null;
  readonly status: 'succeeded';
  readonly created: number;
}

/**
 * Every event carries the whole intent after it, so the webhook worker sends `payment_intent.*`
 * with `data` = the intent (the refund for `refunded`) without folding the stream.
 */
export type PaymentIntentEvent =
  | { readonly type: 'PaymentIntentCreated'; readonly data: { readonly intent: PaymentIntentRecord } }
  | {
      readonly type: 'PaymentIntentConfirmed';
      /**
       * `account_revision`: the account's revision when the intent was confirmed (absent in older
       * logs). Its credit and refunds can only come after it, so that is where their checks read the
       * account's log from.
       */
      readonly data: { readonly intent: PaymentIntentRecord; readonly account_revision?: number };
    }
  | { readonly type: 'PaymentIntentCompleted'; readonly data: { readonly intent: PaymentIntentRecord } }
  | { readonly type: 'PaymentIntentFailed'; readonly data: { readonly intent: PaymentIntentRecord } }
  | { readonly type: 'PaymentIntentCancelled'; readonly data: { readonly intent: PaymentIntentRecord } }
  | { readonly type: 'PaymentIntentRefunded'; readonly data: { readonly intent: PaymentIntentRecord; readonly refund: RefundRecord } };

export type PaymentIntentEventType = PaymentIntentEvent['type'];

export const PAYMENT_INTENT_EVENT_TYPES: readonly PaymentIntentEventType[] = [
  'PaymentIntentCreated',
  'PaymentIntentConfirmed',
  'PaymentIntentCompleted',
  'PaymentIntentFailed',
  'PaymentIntentCancelled',
  'PaymentIntentRefunded',
];
