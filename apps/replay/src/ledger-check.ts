import {
  bookKey,
  customerBalance,
  foldLedgerEvent,
  LEDGER_FIGURES,
  newMovementContext,
  zeroBalances,
  type Ledgers,
  type LedgerBalances,
  type MoneyEvent,
  type MovementContext,
} from '@app/domain/ledger';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { ReadDocument } from '@app/platform/read-store/read-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';

/** The first transaction that breaks one organization and mode's books, and where in the log. */
export interface LedgerBreak {
  readonly book: string;
  readonly transactionId: string;
  readonly position: number;
  readonly message: string;
}

/** One line of the ledger table: a book's currency, or one of its ledger accounts (customers summed). */
export interface LedgerRow extends LedgerBalances {
  readonly book: string;
  readonly currency: string;
  /** `total` (the currency), a system account id (`fees:USD`), or `customers (n)`. */
  readonly account: string;
}

/**
 * The ledger of decisions §12 checked at every position of the log: each event, in today's shape,
 * is folded by the domain (`foldLedgerEvent`) into its organization and mode's book, which then
 * must balance per currency (posted and pending); a money event's `balance_after` must equal its
 * account's postings, and the amounts it states must be its transaction's. Exact: sums are
 * `bigint`, so a difference of one at any size is one.
 * The movement context the derivation keeps is global (a payout's reservation and its hold are on
 * different streams), so every event is folded whatever `--organization` says; only that
 * organization's books are reported. Memory holds the books (accounts and open transactions);
 * the movement facts, which a settled payout keeps, live where `facts` keeps them (the replay: on
 * disk, a SqliteScratchMap).
 *
 * A book's first break is kept: after it the book is wrong by construction and every later
 * transaction of it would be reported again. The fold goes on, so other books are still checked.
 */
export class LedgerCheck {
  private readonly ledgers: Ledgers;
  private readonly broken = new Map<string, LedgerBreak>();

  constructor(
    private readonly organizationId?: string,
    facts: MovementContext = newMovementContext(),
  ) {
    this.ledgers = { context: facts, books: new Map() };
  }

  fold(event: RecordedEvent): void {
    const book = bookKey(event.metadata.organization_id, modeOf(event.metadata, event.data));
    const fault = foldLedgerEvent(this.ledgers, book, event as unknown as MoneyEvent);
    if (fault && !this.broken.has(book))
      this.broken.set(book, {
        book,
        transactionId: fault.transaction_id,
        position: event.position,
        message: fault.message,
      });
  }

  /**
   * Each account as the account projection rebuilt it (its listed balance) against its postings
   * (decisions §12: each account's projected balance equals its ledger): one finding per account.
   */
  async projectedBalanceBreaks(accounts: AsyncIterable<ReadDocument>): Promise<{ account: string; message: string }[]> {
    const found: { account: string; message: string }[] = [];
    for await (const doc of accounts) {
      const { id, organization_id, mode, balance } = doc as ReadDocument & {
        organization_id: string;
        mode: string;
        balance: { available: number; current: number };
      };
      const account = this.ledgers.books.get(bookKey(organization_id, mode))?.accounts.get(id);
      const ledger = account ? customerBalance(account) : { current: 0n, available: 0n };
      if (ledger.current !== BigInt(balance.current) || ledger.available !== BigInt(balance.available)) {
        found.push({
          account: id,
          message: `projected balance ${balance.available}/${balance.current} but its postings give ${ledger.available}/${ledger.current} (available/current)`,
        });
      }
    }
    return found;
  }

  private reported(book: string): boolean {
    return !this.organizationId || book.startsWith(`${this.organizationId}/`);
  }

  /** The first break of each reported book, in log order. */
  breaks(): LedgerBreak[] {
    return [...this.broken.values()].filter((b) => this.reported(b.book)).sort((a, b) => a.position - b.position);
  }

  /** Per reported book and currency: the total, each system account, and the customer accounts summed. */
  rows(): LedgerRow[] {
    const rows: LedgerRow[] = [];
    for (const [book, { accounts, currencies }] of [...this.ledgers.books].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!this.reported(book)) continue;
      for (const [currency, total] of [...currencies].sort(([a], [b]) => (a < b ? -1 : 1))) {
        rows.push({ book, currency, account: 'total', ...pick(total) });
        const customers = zeroBalances();
        let count = 0;
        const system: LedgerRow[] = [];
        for (const account of accounts.values()) {
          if (account.currency !== currency) continue;
          if (account.kind !== 'customer') system.push({ book, currency, account: account.id, ...pick(account) });
          else {
            count += 1;
            for (const k of LEDGER_FIGURES) customers[k] += account[k];
          }
        }
        rows.push(...system.sort((a, b) => (a.account < b.account ? -1 : 1)));
        if (count) rows.push({ book, currency, account: `customers (${count})`, ...customers });
      }
    }
    return rows;
  }
}

const pick = (b: LedgerBalances): LedgerBalances => ({
  debits_posted: b.debits_posted,
  credits_posted: b.credits_posted,
  debits_pending: b.debits_pending,
  credits_pending: b.credits_pending,
});
