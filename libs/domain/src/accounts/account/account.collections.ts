import { invalid, rule, type Decision } from '../../shared';
import { isValidAmount } from '../currency';
import type { Balance } from './account.events';
import { balanceOf, type OpenAccountState } from './account';

/**
 * Collections on the account stream (decisions §7): a completed payment intent credits
 * `amount − applicable_fee`; a refund debits its amount. The account state keeps no list of
 * collections or refunds (it would grow with history): the intent's own stream decides what a
 * refund may take (it sets the amount aside first, so concurrent refunds never pass the charge),
 * and the account decides only what is its own, the available balance. Whether a credit or a
 * debit already landed is read by the caller from this account's log from the revision its step
 * was decided at (the confirmation, the refund's request) on, so the read is bounded by what
 * happened since, never by the account's age (decisions/collections.md, docs/decisions/accounts.md).
 */

export type CollectionCommand =
  | {
      readonly type: 'CreditCollection';
      readonly account_id: string;
      readonly payment_intent_id: string;
      readonly amount: number;
      readonly fee: number;
      readonly currency: string;
      readonly now: number;
      /** Whether the account's log already holds this intent's credit, read from its confirmation's revision on. */
      readonly already_credited: boolean;
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
      /** The account's log already holds this refund's debit, read from the revision of its request on. */
      readonly already_refunded: boolean;
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
type State = OpenAccountState;

export function creditCollection(command: Cmd<'CreditCollection'>, state: State): Decision<CollectionEvent> {
  if (command.already_credited) return [];
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (!Number.isSafeInteger(command.fee) || command.fee < 0 || command.fee > command.amount)
    return invalid('fee', 'fee must be 0 to the amount');
  if (command.currency !== state.currency)
    return rule('currency_mismatch', `The account holds ${state.currency}, not ${command.currency}`);
  const net = command.amount - command.fee;
  if (state.current + net > Number.MAX_SAFE_INTEGER)
    return rule('balance_limit_exceeded', 'The balance would exceed the largest representable amount');
  const { available, current } = balanceOf(state);
  const { account_id, payment_intent_id, amount, fee, currency, now } = command;
  const balance_after = { available: available + net, current: current + net };
  return [
    {
      type: 'CollectionCredited',
      data: {
        account_id,
        entity_id: state.entity_id,
        payment_intent_id,
        amount,
        fee,
        net,
        currency,
        balance_after,
        credited: now,
      },
    },
  ];
}

/** The intent set the amount aside (the charge left); this debits it if the available balance allows, once. */
export function refundCollection(command: Cmd<'RefundCollection'>, state: State): Decision<CollectionEvent> {
  if (command.already_refunded) return [];
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  if (command.currency !== state.currency)
    return rule('currency_mismatch', `The account holds ${state.currency}, not ${command.currency}`);
  const { available, current } = balanceOf(state);
  if (command.amount > available)
    return rule('insufficient_funds', `Available balance ${available} is below the refund of ${command.amount}`);
  const { account_id, payment_intent_id, refund_id, amount, currency, reason, now } = command;
  const balance_after = { available: available - amount, current: current - amount };
  return [
    {
      type: 'CollectionRefunded',
      data: {
        account_id,
        entity_id: state.entity_id,
        payment_intent_id,
        refund_id,
        amount,
        currency,
        reason,
        balance_after,
        refunded: now,
      },
    },
  ];
}

/** Money only: which collections and refunds were applied is the intents' to know. */
export function evolveCollections<S extends State>(state: S, event: CollectionEvent): S {
  if (event.type === 'CollectionCredited')
    return { ...state, current: state.current + event.data.net, updated: event.data.credited };
  return { ...state, current: state.current - event.data.amount, updated: event.data.refunded };
}
