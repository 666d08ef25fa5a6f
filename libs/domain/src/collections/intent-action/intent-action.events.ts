export type IntentActionStatus = 'pending' | 'pending_user_action' | 'completed' | 'failed';
export const INTENT_ACTION_STATUSES: readonly IntentActionStatus[] = [
  'pending',
  'pending_user_action',
  'completed',
  'failed',
];

export const COLLECTION_PAYMENT_TYPES = ['card-acq', 'walletpay-acq'] as const;
export type CollectionPaymentType = (typeof COLLECTION_PAYMENT_TYPES)[number];

export const AUTH_MODELS = ['3ds_required', '3ds_disabled'] as const;
export type AuthModel = (typeof AUTH_MODELS)[number];

/**
 * What an action keeps of `payment_type_data` (spec: "never contains sensitive card details"):
 * the card's last four digits, brand and type, never the number or the CVV.
 */
export interface PaymentTypeSummary {
  readonly auth_model: AuthModel;
  readonly payment_country: string;
  readonly last_four_digits: string | null;
  readonly card_brand: string | null;
  readonly card_type: string | null;
}

export interface Customer {
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
}

/** The intent action as the API shows it (spec "Intent action"), `refunded_amount` aside (it lives on the intent). */
export interface IntentActionRecord {
  readonly id: string;
  readonly payment_intent_id: string;
  readonly entity_id: string;
  readonly account_id: string;
  readonly currency: string;
  readonly amount: number;
  readonly reference: string;
  readonly applicable_fee: number;
  readonly charge_amount: number;
  readonly action: 'confirm';
  readonly category: 'collections';
  readonly payment_type: CollectionPaymentType;
  readonly payment_type_data: PaymentTypeSummary;
  readonly customer: Customer;
  readonly return_url: string | null;
  readonly status: IntentActionStatus;
  readonly status_reason: string | null;
  readonly requires_action: boolean;
  readonly next_action: { readonly type: 'redirect_to_url'; readonly url: string } | null;
  readonly created: number;
  readonly updated: number;
}

/** Every event that changes the action carries the whole action after it. */
export type IntentActionEvent =
  | {
      readonly type: 'IntentActionCreated';
      readonly data: {
        readonly action: IntentActionRecord;
        /** The acquirer's reference to the card (never the card itself). */
        readonly acquirer_token: string | null;
        /** Until when the 3-D Secure page may be completed; null when none is needed. */
        readonly authentication_expires: number | null;
      };
    }
  | { readonly type: 'IntentActionAuthenticated'; readonly data: { readonly action: IntentActionRecord } }
  | {
      /**
       * A caller claimed the acquirer call (decisions/collections.md "One acquirer call per step"):
       * appended with the expected revision before calling, so of two callers one wins. Changes
       * nothing the API shows (the action stays `pending`), so it carries no record: only the key
       * the acquirer is sent and when the claim was made (a claim is exclusive until the deadline).
       */
      readonly type: 'IntentActionAuthorizationStarted';
      readonly data: { readonly intent_action_id: string; readonly idempotency_key: string; readonly started: number };
    }
  | { readonly type: 'IntentActionCompleted'; readonly data: { readonly action: IntentActionRecord } }
  | { readonly type: 'IntentActionFailed'; readonly data: { readonly action: IntentActionRecord } };

export type IntentActionEventType = IntentActionEvent['type'];

export const INTENT_ACTION_EVENT_TYPES: readonly IntentActionEventType[] = [
  'IntentActionCreated',
  'IntentActionAuthenticated',
  'IntentActionAuthorizationStarted',
  'IntentActionCompleted',
  'IntentActionFailed',
];
