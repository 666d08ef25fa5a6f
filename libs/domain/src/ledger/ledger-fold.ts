import {
  applyLedgerChange,
  customerBalance,
  newLedgerBook,
  unbalancedCurrency,
  type LedgerBook,
  type LedgerChange,
  type LedgerFault,
  type LedgerLine,
} from './ledger';
import {
  ledgerChangesOf,
  movementKey,
  newMovementContext,
  type MoneyEvent,
  type MovementContext,
} from './money-movements';

/**
 * The books of every organization and mode, folded from the log in order. Movements are described
 * across streams (a transfer's reservation, a card transaction), so one context serves every book;
 * ids are unique across organizations.
 */
export interface Ledgers {
  readonly context: MovementContext;
  readonly books: Map<string, LedgerBook>;
}

export const newLedgers = (): Ledgers => ({ context: newMovementContext(), books: new Map() });

export const bookKey = (organizationId: string, mode: string) => `${organizationId}/${mode}`;

export function bookOf(ledgers: Ledgers, key: string): LedgerBook {
  let book = ledgers.books.get(key);
  if (!book) ledgers.books.set(key, (book = newLedgerBook()));
  return book;
}

/** Folds one event into its organization and mode's book (`foldIntoBook`), the whole log in one process. */
export function foldLedgerEvent(ledgers: Ledgers, key: string, event: MoneyEvent): LedgerFault | null {
  return foldIntoBook(ledgers.context, () => bookOf(ledgers, key), event);
}

/**
 * Folds one event into its book and checks the book after it: each currency balances, and a money
 * event's `balance_after` (what the account's decider computed) equals the account's balance in
 * the ledger. The first fault names its transaction. `book` may hold only what the event touches
 * (`bookEntriesOf` names it): the ledger read model folds one event at a time on the documents it
 * reads, the replay a whole log in memory.
 */
export function foldIntoBook(
  context: MovementContext,
  bookFor: () => LedgerBook,
  event: MoneyEvent,
): LedgerFault | null {
  // Read before the fold: settling or releasing a hold takes it out of the pending transactions.
  const stated = statedAmountFault(context, bookFor, event);
  const changes = ledgerChangesOf(context, event);
  if ('message' in changes) return changes;
  if (!changes.length) return null;
  const book = bookFor();
  for (const change of changes) {
    const fault = applyLedgerChange(book, change);
    if (fault) return fault;
  }
  const unbalanced = unbalancedCurrency(book);
  if (unbalanced) return { transaction_id: changes[0].transaction_id, message: `${unbalanced} does not balance` };
  const data = event.data as { account_id?: string; balance_after?: { available: number; current: number } };
  if (data.account_id && data.balance_after) {
    const account = book.accounts.get(data.account_id);
    const ledger = account ? customerBalance(account) : { available: 0n, current: 0n };
    if (
      ledger.available !== BigInt(data.balance_after.available) ||
      ledger.current !== BigInt(data.balance_after.current)
    ) {
      return {
        transaction_id: changes[changes.length - 1].transaction_id,
        message: `${data.account_id}: the event says ${data.balance_after.available}/${data.balance_after.current} but its postings give ${ledger.available}/${ledger.current} (available/current)`,
      };
    }
  }
  return stated;
}

/**
 * The amounts a money event states beside its balance, against the transaction the ledger holds:
 * a settled, released or reversed hold's `total` (the statement line's amount) is what its account
 * was debited pending (amount + fee), and a collection's `amount` is `net + fee`. The fold posts or
 * voids the pending lines whatever `total` says, and `balance_after` can agree with the lines while
 * `total` does not, so this is checked on its own.
 */
function statedAmountFault(context: MovementContext, bookFor: () => LedgerBook, event: MoneyEvent): LedgerFault | null {
  switch (event.type) {
    case 'HoldSettled':
    case 'HoldReleased': {
      const d = event.data;
      const lines = bookFor().pending.get(d.hold_id);
      if (!lines) return null; // the fold names a post or void of nothing pending
      const held = lines.filter((l) => l.debit === d.account_id).reduce((n, l) => n + l.amount, 0);
      return held === d.total
        ? null
        : {
            transaction_id: d.hold_id,
            message: `${d.account_id}: the event ${event.type === 'HoldSettled' ? 'settles' : 'releases'} ${d.total} but ${held} is pending`,
          };
    }
    case 'HoldReversed': {
      const d = event.data;
      const payout = context.get(movementKey('transfer', d.hold_id));
      if (payout?.kind !== 'transfer') return null; // the fold names a reversal of a payout the log never created
      const paid = payout.amount + payout.fee;
      return paid === d.total
        ? null
        : {
            transaction_id: `${d.hold_id}:reversal`,
            message: `${d.account_id}: the event returns ${d.total} but the payout was ${paid} (amount + fee)`,
          };
    }
    case 'CollectionCredited': {
      const d = event.data;
      return d.amount === d.net + d.fee
        ? null
        : {
            transaction_id: d.payment_intent_id,
            message: `${d.account_id}: amount ${d.amount} is not net ${d.net} + fee ${d.fee}`,
          };
    }
    default:
      return null;
  }
}

/** The pending transactions an event's changes open, post or void: a book that holds only what the event touches must hold these. */
export const pendingIdsOf = (changes: readonly LedgerChange[]): string[] =>
  changes.filter((c) => c.kind !== 'posted').map((c) => c.transaction_id);

/**
 * The ledger accounts and currencies an event's changes move (the lines of the transactions it
 * posts or voids taken from `pending`), and the account whose `balance_after` it states: with
 * these and `pendingIdsOf`, a partial book folds the event as the whole book would.
 */
export function bookEntriesOf(
  changes: readonly LedgerChange[],
  pending: ReadonlyMap<string, readonly LedgerLine[]>,
  event: MoneyEvent,
): { accounts: Set<string>; currencies: Set<string> } {
  const accounts = new Set<string>();
  const currencies = new Set<string>();
  const data = event.data as { account_id?: string; balance_after?: unknown };
  if (data.account_id && data.balance_after) accounts.add(data.account_id);
  for (const change of changes) {
    const lines =
      change.kind === 'posted' || change.kind === 'pending' ? change.lines : (pending.get(change.transaction_id) ?? []);
    for (const line of lines) {
      accounts.add(line.debit).add(line.credit);
      currencies.add(line.currency);
    }
  }
  return { accounts, currencies };
}
