import type { Mode } from '@app/platform/event-store/event-mode';
import type { PageQuery, ReadStore } from '@app/platform/read-store/read-store.port';
import { accountId as ledgerAccountId, bookOf, type RowDocument, LEDGER } from '../ledger/ledger-documents';
import { latestTick, ledgerFinds } from '../ledger/ledger-view';
import { presentStatementEntry, type StatementEntry } from './statement.projection';
import type { StatementLineBody } from './statement-entry.schema';

/** A statement's month: `YYYY-MM`, a UTC calendar month; `from` inclusive, `to` exclusive (ms). */
export const STATEMENT_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface StatementPeriod {
  readonly month: string;
  readonly from: number;
  readonly to: number;
}

/** The period of a month string, or null when it is not `YYYY-MM`. */
export function periodOf(month: string): StatementPeriod | null {
  const match = STATEMENT_MONTH.exec(month);
  if (!match) return null;
  const [year, index] = [Number(match[1]), Number(match[2]) - 1];
  return { month, from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

/**
 * What an entry does to `balance.current`: credits, and reversals of settled payouts, add; debits
 * (settled payouts, card captures, refunds) take away; holds and releases move `available` only,
 * so they are not lines of a statement (decisions §17: pending holds are not lines).
 */
export function currentDelta(e: StatementEntry): number {
  if (e.type === 'credit' || e.type === 'reversal') return e.amount;
  if (e.type === 'debit') return -e.amount;
  return 0;
}

export const isLine = (e: StatementEntry) => currentDelta(e) !== 0;

/** A line as a statement shows it: the account transaction, plus the log position the proof ties to. */
export const presentLine = (e: StatementEntry): StatementLineBody => ({
  ...presentStatementEntry(e),
  position: e.position ?? null,
});
export type StatementLine = ReturnType<typeof presentLine>;

/** A page of a month's entries: an index seek on (account, mode, month), walked by id (stream order). */
const PAGE = 500;

/** The find of one page of a month, after an entry id ('' for the first): statement-plans.int.spec.ts checks its plan. */
export const monthPage = (accountId: string, mode: Mode, month: string, after: string, limit = PAGE): PageQuery => ({
  filter: { account_id: accountId, mode, month },
  limit,
  after,
});

/**
 * The month's entries of an account, oldest first, a page at a time: each page one index range of
 * at most PAGE documents, so a month of any length costs a page of memory and never the history.
 */
export async function* monthEntries(
  store: ReadStore,
  accountId: string,
  mode: Mode,
  month: string,
): AsyncGenerator<StatementEntry[]> {
  for (let after = ''; ;) {
    const page = await store.find<StatementEntry>('account_transactions', monthPage(accountId, mode, month, after));
    // Read towards newer ids: the page comes back newest first, like every page (read-store.port.ts).
    const items = page.items.slice().reverse();
    if (items.length) yield items;
    if (!page.hasMore || !items.length) return;
    after = items[items.length - 1].id;
  }
}

/**
 * An account's `balance.current` as it was at a time, from the ledger projection (decisions §12:
 * a customer account's current is credits_posted − debits_posted): the book's last move at or before
 * the time, then the account's row at or before it, two index seeks. For a month without entries,
 * whose opening and closing balances no entry of the month carries.
 */
export async function currentBalanceAt(
  store: ReadStore,
  organizationId: string,
  mode: Mode,
  accountId: string,
  at: number,
): Promise<number> {
  const book = bookOf(organizationId, mode);
  const tick = await latestTick(store, book, at);
  if (!tick) return 0;
  const page = await store.find<RowDocument>(LEDGER, ledgerFinds.row(ledgerAccountId(book, accountId), tick.position));
  const row = page.items[0];
  return row ? Number(BigInt(row.credits_posted) - BigInt(row.debits_posted)) : 0;
}

/** The figures of a month, folded from its entries as they stream past (one pass, constant memory). */
export class StatementTotals {
  opening: number | null = null;
  closing: number | null = null;
  credits = 0;
  debits = 0;
  first: number | null = null;
  last: number | null = null;
  lastEventId: string | null = null;

  /** Adds an entry of the month; returns it as a line, or null for a hold or a release. */
  add(e: StatementEntry): StatementLine | null {
    const delta = currentDelta(e);
    // Every entry carries the balance after it (the account's own fold): the first gives the opening.
    this.opening ??= e.balance_after.current - delta;
    this.closing = e.balance_after.current;
    if (!delta) return null;
    if (delta > 0) this.credits += delta;
    else this.debits -= delta;
    this.first ??= e.position ?? null;
    this.last = e.position ?? null;
    this.lastEventId = e.event_id ?? null;
    return presentLine(e);
  }

  /** Opening and closing; `empty` gives both for a month without entries. */
  async balances(empty: () => Promise<number>): Promise<{ opening_balance: number; closing_balance: number }> {
    if (this.opening === null || this.closing === null) {
      const balance = await empty();
      return { opening_balance: balance, closing_balance: balance };
    }
    return { opening_balance: this.opening, closing_balance: this.closing };
  }
}
