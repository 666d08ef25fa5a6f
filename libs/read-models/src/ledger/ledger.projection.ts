import {
  bookEntriesOf,
  LEDGER_FIGURES,
  foldIntoBook,
  ledgerChangesOf,
  MONEY_EVENT_TYPES,
  movementKeysOf,
  pendingIdsOf,
  type LedgerAccount,
  type LedgerBalances,
  type LedgerBook,
  type MoneyEvent,
  type MovementContext,
  type MovementFact,
} from '@app/domain/ledger';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { PlannedWrite, PlanRead, Projection } from '@app/platform/read-store/projection';
import {
  LEDGER,
  SUMS,
  accountId,
  bookOf,
  currencyId,
  factId,
  pendingId,
  rowId,
  sameFigures,
  sumId,
  tickId,
  tickSeries,
  toBalances,
  toFigures,
  type AccountDocument,
  type CurrencyDocument,
  type FactDocument,
  type PendingDocument,
} from './ledger-documents';

/**
 * The ledger (decisions §12) as a maintained read model: each money event is folded by the
 * domain's own `foldIntoBook`, on a book that holds only what the event touches, read from the
 * collection (ledger-documents.ts). What it costs is the event's: a few documents read and
 * written, whatever the history; nothing stays in memory between events.
 *
 * A fault (a movement the log never described, a balance the postings do not give) is not a
 * reason to stop projecting: the figures are what the postings give, as the replay's fold gives
 * them, and `npm run replay -- --verify` names the fault's transaction.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  collection: LEDGER,
  version: 1,
  // A book's accounts and currencies; a series of rows or ticks, newest first (the id sorts them).
  indexes: [['book', 'type'], ['series']],
  handles: MONEY_EVENT_TYPES,
  // Planned: which documents an event moves depends on documents (a settlement on its hold's lines).
  documentIds: () => [],
  evolve: (current) => current,
  plan: planLedger,
};

async function planLedger(recorded: RecordedEvent, read: PlanRead): Promise<PlannedWrite[]> {
  const event = recorded as unknown as MoneyEvent;
  const book = bookOf(recorded.metadata.organization_id, modeOf(recorded.metadata, recorded.data));
  const context = new RecordedFacts();
  for (const key of movementKeysOf(event)) context.load(key, ((await read(factId(key))) as FactDocument | null)?.fact);
  const before = await partialBook(event, book, context.facts, read);
  const after: LedgerBook = {
    accounts: copies(before.accounts),
    currencies: copies(before.currencies),
    pending: new Map(before.pending),
  };
  foldIntoBook(context, () => after, event);
  return [
    ...context.writes(),
    ...pendingWrites(recorded, book, before, after),
    ...(await moneyWrites(recorded, book, before, after, read)),
  ];
}

/**
 * The part of the book the event moves, as stored: a dry run of the derivation on a copy of the
 * facts names the pending transactions it opens, posts or voids, then their lines and its own
 * name the accounts and currencies (bookEntriesOf).
 */
async function partialBook(
  event: MoneyEvent,
  book: string,
  facts: ReadonlyMap<string, MovementFact>,
  read: PlanRead,
): Promise<LedgerBook> {
  const dry = ledgerChangesOf(new Map(facts), event);
  const changes = 'message' in dry ? [] : dry;
  const partial: LedgerBook = { accounts: new Map(), currencies: new Map(), pending: new Map() };
  for (const id of pendingIdsOf(changes)) {
    const doc = (await read(pendingId(book, id))) as PendingDocument | null;
    if (doc) partial.pending.set(id, doc.lines);
  }
  const entries = bookEntriesOf(changes, partial.pending, event);
  for (const id of entries.accounts) {
    const doc = (await read(accountId(book, id))) as AccountDocument | null;
    if (doc) partial.accounts.set(id, { id, kind: doc.kind, currency: doc.currency, ...toBalances(doc) });
  }
  for (const currency of entries.currencies) {
    const doc = (await read(currencyId(book, currency))) as CurrencyDocument | null;
    if (doc) partial.currencies.set(currency, toBalances(doc));
  }
  return partial;
}

const copies = <T extends object>(map: ReadonlyMap<string, T>): Map<string, T> =>
  new Map([...map].map(([k, v]) => [k, { ...v }]));

/** The facts an event reads, and which of them it set or dropped (those are written back). */
class RecordedFacts implements MovementContext {
  readonly facts = new Map<string, MovementFact>();
  private readonly touched = new Set<string>();

  load(key: string, fact: MovementFact | undefined): void {
    if (fact) this.facts.set(key, fact);
  }
  get(key: string): MovementFact | undefined {
    return this.facts.get(key);
  }
  set(key: string, fact: MovementFact): void {
    this.facts.set(key, fact);
    this.touched.add(key);
  }
  delete(key: string): void {
    if (this.facts.delete(key)) this.touched.add(key);
  }
  writes(): PlannedWrite[] {
    return [...this.touched].map((key) => {
      const fact = this.facts.get(key);
      return { id: factId(key), doc: fact ? ({ id: factId(key), type: 'fact', fact } satisfies FactDocument) : null };
    });
  }
}

/** A transaction opened is stored; one posted or voided is deleted (its lines are in the totals). */
function pendingWrites(recorded: RecordedEvent, book: string, before: LedgerBook, after: LedgerBook): PlannedWrite[] {
  const writes: PlannedWrite[] = [];
  const organization_id = recorded.metadata.organization_id;
  for (const id of before.pending.keys())
    if (!after.pending.has(id)) writes.push({ id: pendingId(book, id), doc: null });
  for (const [id, lines] of after.pending) {
    if (!before.pending.has(id))
      writes.push({
        id: pendingId(book, id),
        doc: { id: pendingId(book, id), type: 'pending', organization_id, lines } satisfies PendingDocument,
      });
  }
  return writes;
}

/** Every account and currency the event moved: its totals now, a row of them at this position, the mode's sums, and a tick. */
async function moneyWrites(
  recorded: RecordedEvent,
  book: string,
  before: LedgerBook,
  after: LedgerBook,
  read: PlanRead,
): Promise<PlannedWrite[]> {
  const position = recorded.position;
  // Every document of a book names its organization, as other read models do: `replay --organization` compares by it.
  const organization_id = recorded.metadata.organization_id;
  const writes: PlannedWrite[] = [];
  const moved = <T extends LedgerBalances>(map: Map<string, T>, was: ReadonlyMap<string, LedgerBalances>) =>
    [...map].filter(([k, v]) => !was.has(k) || !sameFigures(v, was.get(k)!));
  for (const [id, account] of moved(after.accounts, before.accounts)) {
    const doc = accountId(book, id);
    const { kind, currency } = account as LedgerAccount;
    writes.push({
      id: doc,
      doc: {
        id: doc,
        type: 'account',
        book,
        organization_id,
        account: id,
        kind,
        currency,
        position,
        ...toFigures(account),
      } satisfies AccountDocument,
    });
    writes.push({
      id: rowId(doc, position),
      doc: { id: rowId(doc, position), type: 'row', organization_id, series: doc, position, ...toFigures(account) },
    });
  }
  const mode = modeOf(recorded.metadata, recorded.data);
  for (const [currency, totals] of moved(after.currencies, before.currencies)) {
    const doc = currencyId(book, currency);
    writes.push({
      id: doc,
      doc: {
        id: doc,
        type: 'currency',
        book,
        organization_id,
        currency,
        position,
        ...toFigures(totals),
      } satisfies CurrencyDocument,
    });
    writes.push({
      id: rowId(doc, position),
      doc: { id: rowId(doc, position), type: 'row', organization_id, series: doc, position, ...toFigures(totals) },
    });
    writes.push(await sumWrite(mode, currency, totals, before.currencies.get(currency), position, read));
  }
  if (writes.length)
    writes.push({
      id: tickId(book, recorded.metadata.occurred_at, position),
      doc: {
        id: tickId(book, recorded.metadata.occurred_at, position),
        type: 'tick',
        organization_id,
        series: tickSeries(book),
        position,
        at: recorded.metadata.occurred_at,
      },
    });
  return writes;
}

/** The mode's totals of a currency over every organization move by what this book's moved. */
async function sumWrite(
  mode: string,
  currency: string,
  now: LedgerBalances,
  was: LedgerBalances | undefined,
  position: number,
  read: PlanRead,
): Promise<PlannedWrite> {
  const id = sumId(mode, currency);
  const stored = (await read(id)) as CurrencyDocument | null;
  const sum = stored
    ? toBalances(stored)
    : { debits_posted: 0n, credits_posted: 0n, debits_pending: 0n, credits_pending: 0n };
  for (const k of LEDGER_FIGURES) sum[k] += now[k] - (was?.[k] ?? 0n);
  return {
    id,
    doc: {
      id,
      type: 'sum',
      book: SUMS,
      mode: mode as CurrencyDocument['mode'],
      currency,
      position,
      ...toFigures(sum),
    } satisfies CurrencyDocument,
  };
}
