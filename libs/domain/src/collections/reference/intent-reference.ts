import type { Decider, Decision } from '../../shared';
import type { NewPaymentIntent } from '../payment-intent/payment-intent.decide';

/**
 * `reference` unique per account (spec Limits): a reservation stream named after the account and
 * the reference, claimed with "no stream" expected, so of two racing creations exactly one wins.
 * It carries the whole new intent, so whoever finds it without its intent (a retry after a crash)
 * creates that intent identically.
 */
export type IntentReferenceEvent = {
  readonly type: 'IntentReferenceReserved';
  readonly data: {
    readonly account_id: string;
    readonly reference: string;
    readonly payment_intent_id: string;
    readonly intent: NewPaymentIntent;
    readonly reserved: number;
  };
};

export type IntentReferenceState =
  { readonly status: 'free' } | { readonly status: 'reserved'; readonly intent: NewPaymentIntent };

export type IntentReferenceCommand = {
  readonly type: 'ReserveIntentReference';
  readonly intent: NewPaymentIntent;
  readonly now: number;
};

function decide({ intent, now }: IntentReferenceCommand, state: IntentReferenceState): Decision<IntentReferenceEvent> {
  // Taken: nothing to append; the caller compares the reserved id with its own.
  if (state.status === 'reserved') return [];
  return [
    {
      type: 'IntentReferenceReserved',
      data: {
        account_id: intent.account_id,
        reference: intent.reference,
        payment_intent_id: intent.id,
        intent,
        reserved: now,
      },
    },
  ];
}

export const intentReferenceDecider: Decider<IntentReferenceCommand, IntentReferenceEvent, IntentReferenceState> = {
  initialState: { status: 'free' },
  decide,
  evolve: (_state, event) => ({ status: 'reserved', intent: event.data.intent }),
};
