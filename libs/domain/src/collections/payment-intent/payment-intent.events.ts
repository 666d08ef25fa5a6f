export type PaymentIntentStatus = 'requires_action' | 'processing' | 'completed' | 'cancelled' | 'failed';
export const PAYMENT_INTENT_STATUSES: readonly PaymentIntentStatus[] = [
  'requires_action',
  'processing',
  'completed',
  'cancelled',
  'failed',
];

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
 * Every event carries the whole intent after it (a refund set aside or freed leaves it as it was), so the webhook worker sends `payment_intent.*`
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
  | {
      readonly type: 'PaymentIntentRefunded';
      readonly data: { readonly intent: PaymentIntentRecord; readonly refund: RefundRecord };
    }
  | {
      /**
       * A refund's amount set aside on the intent before its account is debited (issue 26): the
       * charge left is decided on the intent's own stream, so concurrent refunds never pass it, and
       * whether the debit landed is read from the account's log from `account_revision` on (the
       * account's revision when the refund was requested), never from the charge's time. Internal:
       * no public event.
       */
      readonly type: 'PaymentIntentRefundRequested';
      readonly data: { readonly intent: PaymentIntentRecord; readonly refund: RequestedRefund };
    }
  | {
      /** The account refused the debit (its available balance): what was set aside is refundable again. Internal. */
      readonly type: 'PaymentIntentRefundFailed';
      readonly data: {
        readonly intent: PaymentIntentRecord;
        readonly refund_id: string;
        readonly reason: string;
        readonly failed: number;
      };
    };

/** A refund set aside on its intent, not yet debited and recorded (or refused). */
export interface RequestedRefund {
  readonly payment_intent_id: string;
  readonly refund_id: string;
  readonly amount: number;
  readonly reason: string | null;
  readonly account_revision: number;
  readonly requested: number;
}

export type PaymentIntentEventType = PaymentIntentEvent['type'];

export const PAYMENT_INTENT_EVENT_TYPES: readonly PaymentIntentEventType[] = [
  'PaymentIntentCreated',
  'PaymentIntentConfirmed',
  'PaymentIntentCompleted',
  'PaymentIntentFailed',
  'PaymentIntentCancelled',
  'PaymentIntentRefunded',
  'PaymentIntentRefundRequested',
  'PaymentIntentRefundFailed',
];
