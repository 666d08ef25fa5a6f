import { invalid, rule, type Decision } from '../../shared';
import { isValidAmount } from '../currency';
import type { Balance } from './account.events';
import { balanceOf, lookup, type History, type OpenAccountState } from './account';

/**
 * Collections on the account stream (decisions §7): a completed payment intent credits
 * `amount − applicable_fee`; a refund debits its amount. Both checks a refund needs (never more
 * than charged less earlier refunds, never more than available) run here, in the one append that
 * moves the money, so concurrent refunds can never pass them together.
 */
export interface CollectionLedger {
  /** Per payment intent: what was charged (the intent's amount) and refunded so far. */
  readonly collections?: History<{ readonly charged: number; readonly refunded: number }>;
  /** Refund ids applied, so a repeated refund is a no-op. */
  readonly refunds?: History<true>;
}

export type CollectionCommand =
  | {
      readonly type: 'CreditCollection';
      readonly account_id: string;
      readonly payment_intent_id: string;
      readonly amount: number;
      readonly fee: number;
      readonly currency: string;
      readonly now: number;
    }
  | {
      readonly type: 'RefundCollection';
      readonly account_id: string;
      readonly payment_intent_id: string;
      readonly refund_id: string;
      readonly amount: number;
      readonly currency: string;
      readonly reason: string | null;
      readonly now: number;
    };

export type CollectionEvent =
  | {
      /** A completed payment intent: `net` (amount − fee) is credited to both balances. */
      readonly type: 'CollectionCredited';
      readonly data: {
        readonly account_id: string;
        readonly entity_id: string;
        readonly payment_intent_id: string;
        readonly amount: number;
        readonly fee: number;
        readonly net: number;
        readonly currency: string;
        readonly balance_after: Balance;
        readonly credited: number;
      };
    }
  | {
      /** A refund of a collection: its amount is debited (the collection fee is not returned). */
      readonly type: 'CollectionRefunded';
      readonly data: {
        readonly account_id: string;
        readonly entity_id: string;
        readonly payment_intent_id: string;
        readonly refund_id: string;
        readonly amount: number;
        readonly currency: string;
        readonly reason: string | null;
        readonly balance_after: Balance;
        readonly refunded: number;
      };
    };

export const COLLECTION_EVENT_TYPES: readonly CollectionEvent['type'][] = ['CollectionCredited', 'CollectionRefunded'];

type Cmd<T extends CollectionCommand['type']> = Extract<CollectionCommand, { type: T }>;
type State = OpenAccountState & CollectionLedger;

export function creditCollection(command: Cmd<'CreditCollection'>, state: State): Decision<CollectionEvent> {
  if (lookup(state.collections ?? null, command.payment_intent_id)) return [];
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (!Number.isSafeInteger(command.fee) || command.fee < 0 || command.fee > command.amount) return invalid('fee', 'fee must be 0 to the amount');
  if (command.currency !== state.currency) return rule('currency_mismatch', `The account holds ${state.currency}, not ${command.currency}`);
  const net = command.amount - command.fee;
  if (state.current + net > Number.MAX_SAFE_INTEGER) return rule('balance_limit_exceeded', 'The balance would exceed the largest representable amount');
  const { available, current } = balanceOf(state);
  const { account_id, payment_intent_id, amount, fee, currency, now } = command;
  const balance_after = { available: available + net, current: current + net };
  return [{ type: 'CollectionCredited', data: { account_id, entity_id: state.entity_id, payment_intent_id, amount, fee, net, currency, balance_after, credited: now } }];
}

export function refundCollection(command: Cmd<'RefundCollection'>, state: State): Decision<CollectionEvent> {
  if (lookup(state.refunds ?? null, command.refund_id)) return [];
  const collection = lookup(state.collections ?? null, command.payment_intent_id);
  if (!collection) return rule('collection_not_credited', `Payment intent ${command.payment_intent_id} has credited nothing to this account`);
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  const left = collection.charged - collection.refunded;
  if (command.amount > left) return rule('refund_exceeds_charge', `At most ${left} can still be refunded`, [{ field: 'amount', message: 'exceeds the charge less earlier refunds' }]);
  const { available, current } = balanceOf(state);
  if (command.amount > available) return rule('insufficient_funds', `Available balance ${available} is below the refund of ${command.amount}`);
  const { account_id, payment_intent_id, refund_id, amount, currency, reason, now } = command;
  const balance_after = { available: available - amount, current: current - amount };
  return [{ type: 'CollectionRefunded', data: { account_id, entity_id: state.entity_id, payment_intent_id, refund_id, amount, currency, reason, balance_after, refunded: now } }];
}

export function evolveCollections<S extends State>(state: S, event: CollectionEvent): S {
  const id = event.data.payment_intent_id;
  if (event.type === 'CollectionCredited') {
    const collections = { id, value: { charged: event.data.amount, refunded: 0 }, previous: state.collections ?? null };
    return { ...state, collections, current: state.current + event.data.net, updated: event.data.credited };
  }
  const before = lookup(state.collections ?? null, id) ?? { charged: 0, refunded: 0 };
  const collections = { id, value: { ...before, refunded: before.refunded + event.data.amount }, previous: state.collections ?? null };
  const refunds = { id: event.data.refund_id, value: true as const, previous: state.refunds ?? null };
  return { ...state, collections, refunds, current: state.current - event.data.amount, updated: event.data.refunded };
}
