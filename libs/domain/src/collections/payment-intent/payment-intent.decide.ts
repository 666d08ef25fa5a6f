import { conflict, invalid, notFound, type Decider, type Decision, type DomainError } from '../../shared';
import { isValidAmount } from '../../accounts/currency';
import type { PaymentIntentEvent, PaymentIntentRecord, PaymentIntentStatus } from './payment-intent.events';
import {
  evolvePaymentIntent,
  initialPaymentIntentState,
  invalidState,
  isPaymentIntent,
  type ExistingPaymentIntent,
  type PaymentIntentState,
} from './payment-intent';
import { failRefund, recordRefund, requestRefund, type RefundCommand } from './payment-intent.refunds';

export const REFERENCE_MAX = 100;
export const DESCRIPTION_MAX = 250;
export const REASON_MAX = 100;

export type NewPaymentIntent = Omit<PaymentIntentRecord, 'status' | 'status_reason' | 'intent_action_id' | 'updated'>;

export type PaymentIntentCommand =
  | { readonly type: 'CreatePaymentIntent'; readonly intent: NewPaymentIntent }
  | {
      readonly type: 'ConfirmPaymentIntent';
      readonly payment_intent_id: string;
      readonly intent_action_id: string;
      readonly now: number;
      readonly account_revision?: number;
    }
  | {
      readonly type: 'CancelPaymentIntent';
      readonly payment_intent_id: string;
      readonly reason: string | null;
      readonly now: number;
    }
  | {
      readonly type: 'CompletePaymentIntent';
      readonly payment_intent_id: string;
      readonly intent_action_id: string;
      readonly now: number;
    }
  | {
      readonly type: 'FailPaymentIntent';
      readonly payment_intent_id: string;
      readonly intent_action_id: string;
      readonly status_reason: string;
      readonly now: number;
    }
  | RefundCommand;

type Cmd<T extends PaymentIntentCommand['type']> = Extract<PaymentIntentCommand, { type: T }>;

export function refuseNewIntent(intent: NewPaymentIntent): DomainError | null {
  if (!isValidAmount(intent.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (intent.reference.length < 1 || intent.reference.length > REFERENCE_MAX)
    return invalid('reference', `reference must be 1-${REFERENCE_MAX} characters`);
  if (intent.description !== null && intent.description.length > DESCRIPTION_MAX)
    return invalid('description', `description must be at most ${DESCRIPTION_MAX} characters`);
  return null;
}

function create({ intent }: Cmd<'CreatePaymentIntent'>, state: PaymentIntentState): Decision<PaymentIntentEvent> {
  // Whoever finishes a reference reservation creates the intent; the same id again is done.
  if (isPaymentIntent(state)) return [];
  const refused = refuseNewIntent(intent);
  if (refused) return refused;
  return [
    {
      type: 'PaymentIntentCreated',
      data: {
        intent: {
          ...intent,
          status: 'requires_action',
          status_reason: null,
          intent_action_id: null,
          updated: intent.created,
        },
      },
    },
  ];
}

const moved = (
  state: ExistingPaymentIntent,
  status: PaymentIntentStatus,
  now: number,
  over: Partial<PaymentIntentRecord> = {},
): PaymentIntentRecord => ({
  ...state.intent,
  status,
  updated: now,
  ...over,
});

function confirm(command: Cmd<'ConfirmPaymentIntent'>, state: ExistingPaymentIntent): Decision<PaymentIntentEvent> {
  if (state.intent.intent_action_id === command.intent_action_id) return [];
  if (state.status !== 'requires_action') return invalidState(state, 'confirmed');
  const intent = moved(state, 'processing', command.now, { intent_action_id: command.intent_action_id });
  return [
    {
      type: 'PaymentIntentConfirmed',
      data: { intent, ...(command.account_revision !== undefined && { account_revision: command.account_revision }) },
    },
  ];
}

function cancel(command: Cmd<'CancelPaymentIntent'>, state: ExistingPaymentIntent): Decision<PaymentIntentEvent> {
  if (state.status !== 'requires_action') return invalidState(state, 'cancelled');
  if (command.reason !== null && (command.reason.length < 1 || command.reason.length > REASON_MAX))
    return invalid('reason', `reason must be 1-${REASON_MAX} characters`);
  return [
    {
      type: 'PaymentIntentCancelled',
      data: { intent: moved(state, 'cancelled', command.now, { status_reason: command.reason }) },
    },
  ];
}

/** The confirming action decided: only that action moves the intent, once. */
function finish(
  command: Cmd<'CompletePaymentIntent' | 'FailPaymentIntent'>,
  state: ExistingPaymentIntent,
): Decision<PaymentIntentEvent> {
  const target = command.type === 'CompletePaymentIntent' ? 'completed' : 'failed';
  if (state.intent.intent_action_id !== command.intent_action_id)
    return conflict(
      'intent_action_mismatch',
      `Intent action ${command.intent_action_id} does not confirm this payment intent`,
    );
  if (state.status === target) return [];
  if (state.status !== 'processing') return invalidState(state, target);
  if (command.type === 'CompletePaymentIntent')
    return [{ type: 'PaymentIntentCompleted', data: { intent: moved(state, 'completed', command.now) } }];
  return [
    {
      type: 'PaymentIntentFailed',
      data: { intent: moved(state, 'failed', command.now, { status_reason: command.status_reason }) },
    },
  ];
}

export function decidePaymentIntent(
  command: PaymentIntentCommand,
  state: PaymentIntentState,
): Decision<PaymentIntentEvent> {
  if (command.type === 'CreatePaymentIntent') return create(command, state);
  if (!isPaymentIntent(state)) return notFound('payment_intent', command.payment_intent_id);
  switch (command.type) {
    case 'ConfirmPaymentIntent':
      return confirm(command, state);
    case 'CancelPaymentIntent':
      return cancel(command, state);
    case 'CompletePaymentIntent':
    case 'FailPaymentIntent':
      return finish(command, state);
    case 'RequestRefund':
      return requestRefund(command, state);
    case 'RecordRefund':
      return recordRefund(command, state);
    case 'FailRefund':
      return failRefund(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const paymentIntentDecider: Decider<PaymentIntentCommand, PaymentIntentEvent, PaymentIntentState> = {
  initialState: initialPaymentIntentState,
  decide: decidePaymentIntent,
  evolve: evolvePaymentIntent,
};
