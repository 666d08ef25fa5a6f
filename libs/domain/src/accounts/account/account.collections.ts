import { invalid, rule, type Decision } from '../../shared';
import { isValidAmount } from '../currency';
import type { AccountEvent, Balance } from './account.events';
import { balanceOf, type OpenAccountState } from './account';

/**
 * Collections on the account stream (decisions §7): a completed payment intent credits
 * `amount − applicable_fee`; a refund debits its amount. The account state keeps no list of
 * collections or refunds (it would grow with history): what a decision needs to know about the
 * collection comes with the command, read by the caller from this account's log after the fold and
 * per attempt (`collectionIn`), and the append carries the fold's revision, so a credit or refund
 * landing in between is a conflict and the retry reads it. That is what keeps two concurrent refunds
 * of one intent from both passing the charge: the limit and the balance are still checked in the
 * one append that moves the money (decisions/collections.md).
 */

/** What this account's log says of one payment intent's collection (from where the caller read it on). */
export interface CollectionFacts {
  /** Charged (the intent's amount) once credited, else null. */
  readonly charged: number | null;
  /** Refunded so far. */
  readonly refunded: number;
  /** Refund ids applied. */
  readonly refund_ids: readonly string[];
}

export const NO_COLLECTION: CollectionFacts = { charged: null, refunded: 0, refund_ids: [] };

/** Adds these events of the account's log to what is known of the collection `paymentIntentId`. */
export function collectionIn(events: readonly AccountEvent[], paymentIntentId: string, known: CollectionFacts = NO_COLLECTION): CollectionFacts {
  let { charged, refunded, refund_ids } = known;
  for (const e of events) {
    if (e.type === 'CollectionCredited' && e.data.payment_intent_id === paymentIntentId) charged = e.data.amount;
    if (e.type === 'CollectionRefunded' && e.data.payment_intent_id === paymentIntentId) {
      refunded += e.data.amount;
      refund_ids = [...refund_ids, e.data.refund_id];
    }
  }
  return { charged, refunded, refund_ids };
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
      /** Whether the account's log already holds this intent's credit (`collectionIn(…).charged !== null`). */
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
      /** The collection as the account's log says, read after the fold (`collectionIn`). */
      readonly collection: CollectionFacts;
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
  const { collection } = command;
  if (collection.refund_ids.includes(command.refund_id)) return [];
  if (collection.charged === null) return rule('collection_not_credited', `Payment intent ${command.payment_intent_id} has credited nothing to this account`);
  if (!isValidAmount(command.amount)) return invalid('amount', 'amount must be a positive integer of minor units');
  const left = collection.charged - collection.refunded;
  if (command.amount > left) return rule('refund_exceeds_charge', `At most ${left} can still be refunded`, [{ field: 'amount', message: 'exceeds the charge less earlier refunds' }]);
  const { available, current } = balanceOf(state);
  if (command.amount > available) return rule('insufficient_funds', `Available balance ${available} is below the refund of ${command.amount}`);
  const { account_id, payment_intent_id, refund_id, amount, currency, reason, now } = command;
  const balance_after = { available: available - amount, current: current - amount };
  return [{ type: 'CollectionRefunded', data: { account_id, entity_id: state.entity_id, payment_intent_id, refund_id, amount, currency, reason, balance_after, refunded: now } }];
}

/** Money only: which collections and refunds were applied is read from the log (`collectionIn`). */
export function evolveCollections<S extends State>(state: S, event: CollectionEvent): S {
  if (event.type === 'CollectionCredited') return { ...state, current: state.current + event.data.net, updated: event.data.credited };
  return { ...state, current: state.current - event.data.amount, updated: event.data.refunded };
}
