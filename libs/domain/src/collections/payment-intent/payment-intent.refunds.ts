import { invalid, rule, type Decision, type DomainError } from '../../shared';
import { isValidAmount } from '../../accounts/currency';
import type { PaymentIntentEvent, RefundRecord } from './payment-intent.events';
import { invalidState, refundableOf, type ExistingPaymentIntent } from './payment-intent';

/**
 * Refunds (decisions §7) in three steps, each a no-op the second time: the intent sets the amount
 * aside (the charge left is decided here, on the intent's own stream), the account debits it (its
 * available balance decides), and the intent records it (`payment_intent.refunded`) or, refused,
 * frees it. The account keeps no collections: what it must know comes from this stream.
 */
export type RefundCommand =
  | {
      readonly type: 'RequestRefund';
      readonly payment_intent_id: string;
      readonly refund_id: string;
      readonly amount: number;
      readonly reason: string | null;
      /** The account's revision read before this request: the debit can only land after it. */
      readonly account_revision: number;
      readonly now: number;
    }
  | {
      readonly type: 'RecordRefund';
      readonly payment_intent_id: string;
      readonly refund: RefundRecord;
      readonly now: number;
    }
  | {
      readonly type: 'FailRefund';
      readonly payment_intent_id: string;
      readonly refund_id: string;
      readonly reason: string;
      readonly now: number;
    };

type Cmd<T extends RefundCommand['type']> = Extract<RefundCommand, { type: T }>;

const known = (state: ExistingPaymentIntent, refundId: string) =>
  state.requested[refundId] !== undefined || state.refunds.some((r) => r.id === refundId);

const exceeds = (left: number): DomainError =>
  rule('refund_exceeds_charge', `At most ${left} can still be refunded`, [
    { field: 'amount', message: 'exceeds the charge less earlier refunds' },
  ]);

export function requestRefund(
  command: Cmd<'RequestRefund'>,
  state: ExistingPaymentIntent,
): Decision<PaymentIntentEvent> {
  if (known(state, command.refund_id)) return [];
  if (state.status !== 'completed') return invalidState(state, 'refunded');
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (command.amount > refundableOf(state)) return exceeds(refundableOf(state));
  const { payment_intent_id, refund_id, amount, reason, account_revision, now } = command;
  return [
    {
      type: 'PaymentIntentRefundRequested',
      data: {
        intent: state.intent,
        refund: { payment_intent_id, refund_id, amount, reason, account_revision, requested: now },
      },
    },
  ];
}

/** A debited refund, recorded once. One set aside was checked when requested; an older log's (debited first) is checked here. */
export function recordRefund(
  { refund, now }: Cmd<'RecordRefund'>,
  state: ExistingPaymentIntent,
): Decision<PaymentIntentEvent> {
  if (state.refunds.some((r) => r.id === refund.id)) return [];
  if (!state.requested[refund.id]) {
    if (state.status !== 'completed') return invalidState(state, 'refunded');
    if (!isValidAmount(refund.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
    if (refund.amount > refundableOf(state)) return exceeds(refundableOf(state));
  }
  return [{ type: 'PaymentIntentRefunded', data: { intent: { ...state.intent, updated: now }, refund } }];
}

export function failRefund(command: Cmd<'FailRefund'>, state: ExistingPaymentIntent): Decision<PaymentIntentEvent> {
  if (!state.requested[command.refund_id]) return [];
  const { refund_id, reason, now } = command;
  return [{ type: 'PaymentIntentRefundFailed', data: { intent: state.intent, refund_id, reason, failed: now } }];
}
