import type { AccountEvent } from '../accounts/account/account.events';
import type { CardEvent } from '../cards/card/card.events';
import type { IntentActionEvent } from '../collections/intent-action/intent-action.events';
import type { TransferReferenceEvent } from '../transfers/reference/transfer-reference';
import { clearingAccount, systemAccount, type LedgerChange, type LedgerFault, type LedgerLine } from './ledger';

/**
 * Which ledger transaction each money event on an account stream is (decisions §12). The account
 * stream decides the money (its available balance); the movement it belongs to says where the
 * other side goes: the transfer's rail (carried by its hold; in older logs, by its reference
 * reservation, which preceded the hold),
 * the card transaction's currencies (the card stream decides before the account follows), the
 * intent action's payment type. Events of today's log and of logs written before the ledger fold
 * the same way, so an old log gets its postings, fees included, with no rewrite.
 *
 * Transaction ids are the movement's own id: a transfer or card transaction id for its hold,
 * `<transfer>:reversal` for a payout coming back, `<transfer>:receipt` for a book transfer arriving,
 * the intent id for a collection, the refund id, the funding's transaction id. A book transfer
 * passes through `clearing:book-transfer:<C>`: the sender's account decides and the receiver's
 * stream applies the credit once (its own append), so the books balance at every position between.
 */
export type MoneyEvent = AccountEvent | CardEvent | IntentActionEvent | TransferReferenceEvent;

/** The event types the derivation reads: those that describe a movement, and those that move money. */
export const MONEY_EVENT_TYPES: readonly MoneyEvent['type'][] = [
  'AccountOpened',
  'TransferReferenceReserved',
  'CardAuthorizationHeld',
  'CardTransactionCaptured',
  'CardTransactionReversed',
  'IntentActionCreated',
  'AccountFunded',
  'FundsHeld',
  'HoldSettled',
  'HoldReleased',
  'HoldReversed',
  'BookTransferReceived',
  'CollectionCredited',
  'CollectionRefunded',
];

/**
 * What the derivation knows of a movement, by key (`movementKey`): an account's currency, a
 * payout's rail and amounts (kept after it settles: it may still come back), a card transaction's
 * currencies, an intent's payment type. The derivation reads and writes these facts through a
 * `MovementContext`: a Map when a whole log is folded in one process, documents of the ledger read
 * model when the projector derives one event at a time (nothing of it stays in memory there).
 */
export type MovementFact =
  | { readonly kind: 'account'; readonly currency: string }
  | {
      readonly kind: 'transfer';
      readonly rail: string;
      readonly amount: number;
      readonly fee: number;
      readonly currency: string;
    }
  /** The card's currency and amount (the captured amount once captured). */
  | {
      readonly kind: 'card';
      readonly currency: string;
      readonly amount: number;
      readonly status: 'held' | 'captured' | 'reversed';
    }
  | { readonly kind: 'intent'; readonly rail: string };

type FactKind = MovementFact['kind'];
type FactOf<K extends FactKind> = Extract<MovementFact, { kind: K }>;

/** The facts of movements still able to move money; a Map is one. */
export interface MovementContext {
  get(key: string): MovementFact | undefined;
  set(key: string, fact: MovementFact): unknown;
  delete(key: string): unknown;
}

export const newMovementContext = (): MovementContext => new Map<string, MovementFact>();

export const movementKey = (kind: FactKind, id: string) => `${kind}:${id}`;

function factOf<K extends FactKind>(context: MovementContext, kind: K, id: string): FactOf<K> | undefined {
  const fact = context.get(movementKey(kind, id));
  return fact?.kind === kind ? (fact as FactOf<K>) : undefined;
}

/**
 * The facts `ledgerChangesOf` may read for an event (a reader that keeps them in a store fetches
 * these first); events that only describe a movement read none.
 */
export function movementKeysOf(event: MoneyEvent): string[] {
  switch (event.type) {
    case 'FundsHeld':
      return [
        movementKey('account', event.data.account_id),
        movementKey('transfer', event.data.hold_id),
        movementKey('card', cardTransactionOf(event.data.hold_id)),
      ];
    case 'HoldSettled':
    case 'HoldReleased':
      return [movementKey('transfer', event.data.hold_id), movementKey('card', cardTransactionOf(event.data.hold_id))];
    case 'HoldReversed':
      return [movementKey('account', event.data.account_id), movementKey('transfer', event.data.hold_id)];
    case 'CollectionCredited':
    case 'CollectionRefunded':
      return [movementKey('intent', event.data.payment_intent_id)];
    default:
      return [];
  }
}

const CAPTURE_SUFFIX = '.capture';
const cardTransactionOf = (holdId: string) =>
  holdId.endsWith(CAPTURE_SUFFIX) ? holdId.slice(0, -CAPTURE_SUFFIX.length) : holdId;

type Result = readonly LedgerChange[] | LedgerFault;

/**
 * The ledger changes of one event, updating the context. Events that move no money answer [].
 * A money event whose movement the log never described is a fault, named by its transaction.
 */
export function ledgerChangesOf(context: MovementContext, event: MoneyEvent): Result {
  switch (event.type) {
    case 'AccountOpened':
      context.set(movementKey('account', event.data.account_id), { kind: 'account', currency: event.data.currency });
      return [];
    case 'TransferReferenceReserved': {
      const { intent } = event.data;
      const rail = intent.payment_type;
      context.set(movementKey('transfer', intent.id), {
        kind: 'transfer',
        rail,
        amount: intent.amount,
        fee: intent.fee,
        currency: intent.currency,
      });
      return [];
    }
    case 'CardAuthorizationHeld':
    case 'CardTransactionCaptured':
    case 'CardTransactionReversed': {
      const t = event.data.transaction;
      const status =
        event.type === 'CardAuthorizationHeld'
          ? 'held'
          : event.type === 'CardTransactionCaptured'
            ? 'captured'
            : 'reversed';
      context.set(movementKey('card', t.id), { kind: 'card', currency: t.currency, amount: t.amount, status });
      return [];
    }
    case 'IntentActionCreated':
      context.set(movementKey('intent', event.data.action.payment_intent_id), {
        kind: 'intent',
        rail: event.data.action.payment_type,
      });
      return [];
    default:
      return accountMoney(context, event);
  }
}

function accountMoney(context: MovementContext, event: MoneyEvent): Result {
  switch (event.type) {
    case 'AccountFunded': {
      const d = event.data;
      const from =
        d.source === 'inflow' && d.rail ? clearingAccount(d.rail, d.currency) : systemAccount('funding', d.currency);
      return [
        {
          kind: 'posted',
          transaction_id: d.transaction_id,
          lines: [{ debit: from, credit: d.account_id, amount: d.amount, currency: d.currency }],
        },
      ];
    }
    case 'FundsHeld': {
      const lines = holdLines(context, event.data);
      return 'message' in lines ? lines : [{ kind: 'pending', transaction_id: event.data.hold_id, lines }];
    }
    case 'HoldSettled':
      forget(context, event.data.hold_id, 'settled');
      return [{ kind: 'post_pending', transaction_id: event.data.hold_id }];
    case 'HoldReleased':
      forget(context, event.data.hold_id, 'released');
      return [{ kind: 'void_pending', transaction_id: event.data.hold_id }];
    case 'HoldReversed': {
      const id = `${event.data.hold_id}:reversal`;
      const t = factOf(context, 'transfer', event.data.hold_id);
      const currency = factOf(context, 'account', event.data.account_id)?.currency;
      if (!t || !currency)
        return { transaction_id: id, message: `reverses ${event.data.hold_id}, a payout the log never created` };
      context.delete(movementKey('transfer', event.data.hold_id));
      return [{ kind: 'posted', transaction_id: id, lines: payoutLines(event.data.account_id, t, currency).map(flip) }];
    }
    case 'BookTransferReceived': {
      const d = event.data;
      return [
        {
          kind: 'posted',
          transaction_id: `${d.transfer_id}:receipt`,
          lines: [
            {
              debit: clearingAccount('book-transfer', d.currency),
              credit: d.account_id,
              amount: d.amount,
              currency: d.currency,
            },
          ],
        },
      ];
    }
    case 'CollectionCredited': {
      const d = event.data;
      const rail = factOf(context, 'intent', d.payment_intent_id)?.rail;
      if (!rail)
        return {
          transaction_id: d.payment_intent_id,
          message: 'credits a collection whose intent action the log never created',
        };
      const clearing = clearingAccount(rail, d.currency);
      const lines: LedgerLine[] = [{ debit: clearing, credit: d.account_id, amount: d.net, currency: d.currency }];
      if (d.fee > 0)
        lines.push({ debit: clearing, credit: systemAccount('fees', d.currency), amount: d.fee, currency: d.currency });
      return [{ kind: 'posted', transaction_id: d.payment_intent_id, lines: lines.filter((l) => l.amount !== 0) }];
    }
    case 'CollectionRefunded': {
      const d = event.data;
      const rail = factOf(context, 'intent', d.payment_intent_id)?.rail;
      if (!rail)
        return {
          transaction_id: d.refund_id,
          message: 'refunds a collection whose intent action the log never created',
        };
      return [
        {
          kind: 'posted',
          transaction_id: d.refund_id,
          lines: [
            { debit: d.account_id, credit: clearingAccount(rail, d.currency), amount: d.amount, currency: d.currency },
          ],
        },
      ];
    }
    default:
      return [];
  }
}

/** A payout: the account pays the rail the amount and the platform the fee. */
function payoutLines(accountId: string, t: FactOf<'transfer'>, currency: string): LedgerLine[] {
  const lines: LedgerLine[] = [
    { debit: accountId, credit: clearingAccount(t.rail, currency), amount: t.amount, currency },
  ];
  if (t.fee > 0) lines.push({ debit: accountId, credit: systemAccount('fees', currency), amount: t.fee, currency });
  return lines;
}

const flip = (line: LedgerLine): LedgerLine => ({ ...line, debit: line.credit, credit: line.debit });

function holdLines(
  context: MovementContext,
  hold: Extract<AccountEvent, { type: 'FundsHeld' }>['data'],
): LedgerLine[] | LedgerFault {
  const currency = factOf(context, 'account', hold.account_id)?.currency;
  if (!currency)
    return {
      transaction_id: hold.hold_id,
      message: `holds money on ${hold.account_id}, an account the log never opened`,
    };
  // A new transfer's hold carries its payout; in older logs its reservation described it before.
  if (hold.transfer) {
    const t = hold.transfer;
    context.set(movementKey('transfer', hold.hold_id), {
      kind: 'transfer',
      rail: t.payment_type,
      amount: t.amount,
      fee: t.fee,
      currency: t.currency,
    });
  }
  const transfer = factOf(context, 'transfer', hold.hold_id);
  if (transfer) {
    if (transfer.amount !== hold.amount || transfer.fee !== hold.fee)
      return {
        transaction_id: hold.hold_id,
        message: `holds ${hold.amount} + ${hold.fee} for a transfer of ${transfer.amount} + ${transfer.fee}`,
      };
    return payoutLines(hold.account_id, transfer, currency);
  }
  const card = factOf(context, 'card', cardTransactionOf(hold.hold_id));
  if (!card) return { transaction_id: hold.hold_id, message: 'holds money for a movement the log never described' };
  if (card.currency === currency)
    return [{ debit: hold.account_id, credit: clearingAccount('card', currency), amount: hold.amount, currency }];
  // FX: the account pays the FX position in its currency; the FX position pays the card network in the card's.
  return [
    { debit: hold.account_id, credit: systemAccount('fx', currency), amount: hold.amount, currency },
    {
      debit: systemAccount('fx', card.currency),
      credit: clearingAccount('card', card.currency),
      amount: card.amount,
      currency: card.currency,
    },
  ];
}

/**
 * Context no later event can need is dropped, so the derivation's memory follows what is open: a
 * released transfer can no longer settle or come back; a card transaction ends when its hold
 * settles, or when it is released after a reversal (a partial capture releases the authorization
 * and then holds and settles `<id>.capture`, so a captured one is kept until then).
 */
function forget(context: MovementContext, holdId: string, how: 'settled' | 'released'): void {
  if (how === 'released') context.delete(movementKey('transfer', holdId));
  const id = cardTransactionOf(holdId);
  const card = factOf(context, 'card', id);
  if (card && (how === 'settled' || card.status === 'reversed')) context.delete(movementKey('card', id));
}
