import type { LedgerView } from './get-ledger.query';
import type { PointInTime } from '@app/platform/event-store/point-in-time';
import type { PageQuery, ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';
import {
  LEDGER,
  rowId,
  ticksBefore,
  tickSeries,
  toBalances,
  type AccountDocument,
  type CurrencyDocument,
  type RowDocument,
  type TickDocument,
} from './ledger-documents';

const PAGE = 100;

/** Code-point order, the same on every machine (no locale). */
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One book's figures as they were after the event at `position` (at or below the projection's
 * checkpoint): each account and currency from its document when that was last moved at or before
 * the point, else from its latest row at or before it (one index seek), absent when it had none.
 * A read at the head seeks only for what moved while it read, so the answer is one position's
 * whatever the projector writes meanwhile. It costs the book's accounts, never its history.
 */
export async function ledgerAt(store: ReadStore, book: string, position: number): Promise<LedgerView> {
  if (position <= 0) return { position: 0, currencies: [], accounts: [] };
  const currencies = await figuresAt<CurrencyDocument>(store, book, 'currency', position);
  const accounts = await figuresAt<AccountDocument>(store, book, 'account', position);
  return {
    position,
    currencies: currencies
      .sort((a, b) => byCode(a.doc.currency, b.doc.currency))
      .map(({ doc, figures }) => ({ currency: doc.currency, ...figures })),
    accounts: accounts
      .sort((a, b) => byCode(a.doc.account, b.doc.account))
      .map(({ doc, figures }) => ({ id: doc.account, kind: doc.kind, currency: doc.currency, ...figures })),
  };
}

async function figuresAt<D extends AccountDocument | CurrencyDocument>(
  store: ReadStore,
  book: string,
  type: D['type'],
  position: number,
) {
  const found: { doc: D; figures: ReturnType<typeof toBalances> }[] = [];
  for (const doc of await allOf<D>(store, { book, type })) {
    const at = doc.position <= position ? doc : await latestRow(store, doc.id, position);
    if (at) found.push({ doc, figures: toBalances(at) });
  }
  return found;
}

/** The finds the ledger issues, each an index seek (ledger-plans.int.spec.ts checks their plans). */
export const ledgerFinds = {
  /** A page of a book's accounts or currencies, or of the sums (`book: '*'`). */
  listed: (filter: { book: string; type: string }, before?: string): PageQuery => ({ filter, limit: PAGE, before }),
  /** The latest row of a series at or before a position. */
  row: (series: string, position: number): PageQuery => ({
    filter: { series },
    before: rowId(series, position + 1),
    limit: 1,
  }),
  /** The latest tick of a book, at or before a time when one is given. */
  tick: (book: string, at?: number): PageQuery => ({
    filter: { series: tickSeries(book) },
    before: at === undefined ? undefined : ticksBefore(book, Math.floor(at) + 1),
    limit: 1,
  }),
};

/** Every document of a filter, a page at a time (a book's accounts: bounded by its accounts, not its history). */
export async function allOf<D extends ReadDocument>(
  store: ReadStore,
  filter: { book: string; type: string },
): Promise<D[]> {
  const all: D[] = [];
  for (let before: string | undefined; ;) {
    const page = await store.find<D>(LEDGER, ledgerFinds.listed(filter, before));
    all.push(...page.items);
    if (!page.hasMore || !page.items.length) return all;
    before = page.items[page.items.length - 1].id;
  }
}

async function latestRow(store: ReadStore, series: string, position: number): Promise<RowDocument | null> {
  const page = await store.find<RowDocument>(LEDGER, ledgerFinds.row(series, position));
  return page.items[0] ?? null;
}

/** The newest tick of a book at or before a time (ms), or the newest of all: where a book last moved. */
export async function latestTick(store: ReadStore, book: string, at?: number): Promise<TickDocument | null> {
  const page = await store.find<TickDocument>(LEDGER, ledgerFinds.tick(book, at));
  return page.items[0] ?? null;
}

/** The position an `as_of` names, at most the projection's: a position as given, a time as the book's last move at or before it. */
export async function positionOf(store: ReadStore, book: string, point: PointInTime, head: number): Promise<number> {
  if ('position' in point) return Math.min(point.position, head);
  if (point.time < 0) return 0;
  return Math.min((await latestTick(store, book, point.time))?.position ?? 0, head);
}
