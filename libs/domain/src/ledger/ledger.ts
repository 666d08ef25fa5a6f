/**
 * The double-entry ledger (decisions §12), as TigerBeetle keeps one: ledger accounts carry
 * debits and credits, posted and pending; a transaction is a set of lines, each one debit and one
 * credit of the same amount in the same currency, so a transaction balances per currency by
 * construction. Pending lines count against `available`; a pending transaction is later posted or
 * voided as a whole (a partial capture voids the authorization and posts what was captured).
 */
export type LedgerAccountKind = 'customer' | 'funding' | 'fees' | 'fx' | 'clearing';

export interface LedgerLine {
  /** Ledger account ids: an API account (`acc_…`) or a system account (`fees:USD`, `clearing:card:EUR`). */
  readonly debit: string;
  readonly credit: string;
  readonly amount: number;
  readonly currency: string;
}

export type LedgerChange =
  | { readonly kind: 'posted'; readonly transaction_id: string; readonly lines: readonly LedgerLine[] }
  | { readonly kind: 'pending'; readonly transaction_id: string; readonly lines: readonly LedgerLine[] }
  | { readonly kind: 'post_pending'; readonly transaction_id: string }
  | { readonly kind: 'void_pending'; readonly transaction_id: string };

/**
 * Sums that grow with lifetime volume: a system account (`funding:USD`) or a currency's totals pass
 * 2^53 long before any one movement does, so they are arbitrary-precision integers (decisions §12).
 */
export interface LedgerBalances {
  debits_posted: bigint;
  credits_posted: bigint;
  debits_pending: bigint;
  credits_pending: bigint;
}

export const LEDGER_FIGURES = ['debits_posted', 'credits_posted', 'debits_pending', 'credits_pending'] as const;

export interface LedgerAccount extends LedgerBalances {
  readonly id: string;
  readonly kind: LedgerAccountKind;
  readonly currency: string;
}

/** Why a change cannot be applied: the first transaction that breaks the books is named. */
export interface LedgerFault {
  readonly transaction_id: string;
  readonly message: string;
}

/**
 * One organization and mode's books. Mutable on purpose: it is the fold of a whole log (a replay
 * of millions of events), where copying the maps per event would be quadratic. Pending holds only
 * what is open, so it does not grow with history.
 */
export interface LedgerBook {
  readonly accounts: Map<string, LedgerAccount>;
  readonly currencies: Map<string, LedgerBalances>;
  readonly pending: Map<string, readonly LedgerLine[]>;
}

export const newLedgerBook = (): LedgerBook => ({ accounts: new Map(), currencies: new Map(), pending: new Map() });

const SYSTEM_KINDS: readonly LedgerAccountKind[] = ['funding', 'fees', 'fx', 'clearing'];

/** `acc_…` is a customer account; `funding:USD`, `fees:USD`, `fx:USD`, `clearing:<rail>:USD` are system accounts. */
export function ledgerAccountKind(id: string): LedgerAccountKind | null {
  if (id.startsWith('acc_')) return 'customer';
  const kind = id.split(':')[0] as LedgerAccountKind;
  return SYSTEM_KINDS.includes(kind) ? kind : null;
}

export const systemAccount = (kind: Exclude<LedgerAccountKind, 'customer' | 'clearing'>, currency: string) =>
  `${kind}:${currency}`;
export const clearingAccount = (rail: string, currency: string) => `clearing:${rail}:${currency}`;

export const zeroBalances = (): LedgerBalances => ({
  debits_posted: 0n,
  credits_posted: 0n,
  debits_pending: 0n,
  credits_pending: 0n,
});

/**
 * A customer account's balances (decisions §12): current = credits − debits posted; available =
 * current − debits pending. Exact: the decider keeps them within 2^53 − 1, and a check compares
 * them with what an event states (a number) as `BigInt(stated)`.
 */
export const customerBalance = (account: LedgerBalances): { current: bigint; available: bigint } => {
  const current = account.credits_posted - account.debits_posted;
  return { current, available: current - account.debits_pending };
};

function checkLines(transactionId: string, lines: readonly LedgerLine[]): LedgerFault | null {
  if (!lines.length) return { transaction_id: transactionId, message: 'a transaction needs at least one line' };
  for (const line of lines) {
    if (!Number.isSafeInteger(line.amount) || line.amount <= 0)
      return {
        transaction_id: transactionId,
        message: `line amount ${line.amount} is not a positive integer of minor units`,
      };
    if (line.debit === line.credit)
      return { transaction_id: transactionId, message: `line debits and credits the same account ${line.debit}` };
    for (const id of [line.debit, line.credit])
      if (!ledgerAccountKind(id)) return { transaction_id: transactionId, message: `unknown ledger account ${id}` };
  }
  return null;
}

function account(book: LedgerBook, id: string, currency: string): LedgerAccount {
  let found = book.accounts.get(id);
  if (!found) book.accounts.set(id, (found = { id, kind: ledgerAccountKind(id)!, currency, ...zeroBalances() }));
  return found;
}

function currencyTotals(book: LedgerBook, currency: string): LedgerBalances {
  let found = book.currencies.get(currency);
  if (!found) book.currencies.set(currency, (found = zeroBalances()));
  return found;
}

type Side = 'posted' | 'pending';

/** An account keeps the currency of its first line; a line in another currency would unbalance both. */
function currencyFault(book: LedgerBook, lines: readonly LedgerLine[]): LedgerFault | null {
  for (const line of lines) {
    for (const id of [line.debit, line.credit]) {
      const known = book.accounts.get(id);
      if (known && known.currency !== line.currency)
        return { transaction_id: '', message: `a ${line.currency} line touches ${id}, a ${known.currency} account` };
    }
  }
  return null;
}

/** Adds (sign 1) or takes away (sign −1) lines on one side; both legs of a line move together, so each currency stays balanced. */
function move(book: LedgerBook, lines: readonly LedgerLine[], side: Side, sign: 1 | -1): null {
  for (const line of lines) {
    const debit = account(book, line.debit, line.currency);
    const credit = account(book, line.credit, line.currency);
    const totals = currencyTotals(book, line.currency);
    const amount = BigInt(sign * line.amount);
    if (side === 'posted') {
      debit.debits_posted += amount;
      credit.credits_posted += amount;
      totals.debits_posted += amount;
      totals.credits_posted += amount;
    } else {
      debit.debits_pending += amount;
      credit.credits_pending += amount;
      totals.debits_pending += amount;
      totals.credits_pending += amount;
    }
  }
  return null;
}

/**
 * Applies one change to the books, or names why it cannot be: a malformed line, a pending id used
 * twice, a post or void of nothing pending, a line between accounts of different currencies.
 */
export function applyLedgerChange(book: LedgerBook, change: LedgerChange): LedgerFault | null {
  const id = change.transaction_id;
  const named = (fault: LedgerFault | null) => (fault ? { ...fault, transaction_id: id } : null);
  switch (change.kind) {
    case 'posted':
    case 'pending': {
      const fault = checkLines(id, change.lines) ?? currencyFault(book, change.lines);
      if (fault) return named(fault);
      if (change.kind === 'posted') return move(book, change.lines, 'posted', 1);
      if (book.pending.has(id)) return { transaction_id: id, message: 'pending twice' };
      book.pending.set(id, change.lines);
      return move(book, change.lines, 'pending', 1);
    }
    case 'post_pending':
    case 'void_pending': {
      const lines = book.pending.get(id);
      if (!lines)
        return {
          transaction_id: id,
          message: `${change.kind === 'post_pending' ? 'posts' : 'voids'} a transaction that is not pending`,
        };
      book.pending.delete(id);
      move(book, lines, 'pending', -1);
      return change.kind === 'post_pending' ? move(book, lines, 'posted', 1) : null;
    }
  }
}

/** Σ debits = Σ credits per currency, posted and pending: the invariant every position must keep. */
export function unbalancedCurrency(book: LedgerBook): string | null {
  for (const [currency, t] of book.currencies) {
    if (t.debits_posted !== t.credits_posted || t.debits_pending !== t.credits_pending) return currency;
  }
  return null;
}
