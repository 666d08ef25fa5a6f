import {
  LEDGER_FIGURES,
  type LedgerAccountKind,
  type LedgerBalances,
  type LedgerLine,
  type MovementFact,
} from '@app/domain/ledger';
import type { Mode } from '@app/platform/event-store/event-mode';

/**
 * The documents of the `ledger` collection (decisions §12). Sums are decimal strings: every digit,
 * in SQLite's JSON and MongoDB's BSON alike (a number would be a double in both), read back as
 * `bigint`. Per organization and mode (a book, `<org>:<mode>`):
 *
 * - `account` / `currency`: a ledger account's or a currency's four totals now, with the position
 *   of the event that last moved them;
 * - `row`: the same totals after each event that moved them, in a series per account or currency
 *   whose ids sort by position, so "the latest row at or before N" is one index seek;
 * - `tick`: one per event that moved the book, ids sorted by time, for `as_of` a time;
 * - `pending`: the lines of a transaction still pending (deleted when posted or voided);
 * - `fact`: what the derivation knows of a movement (money-movements.ts), global like its ids.
 *
 * And per mode and currency over every organization, `sum`: the metrics' totals.
 */
export const LEDGER = 'ledger';

export type Figures = Record<(typeof LEDGER_FIGURES)[number], string>;

interface Base {
  [field: string]: unknown;
  readonly id: string;
}

export interface AccountDocument extends Base, Figures {
  readonly type: 'account';
  readonly book: string;
  readonly account: string;
  readonly kind: LedgerAccountKind;
  readonly currency: string;
  readonly position: number;
}

export interface CurrencyDocument extends Base, Figures {
  readonly type: 'currency' | 'sum';
  readonly book: string;
  readonly currency: string;
  readonly position: number;
  readonly mode?: Mode;
}

/** An account's or a currency's figures after the event at `position`. */
export interface RowDocument extends Base, Figures {
  readonly type: 'row';
  readonly series: string;
  readonly position: number;
}

export interface TickDocument extends Base {
  readonly type: 'tick';
  readonly series: string;
  readonly position: number;
  readonly at: number;
}

export interface PendingDocument extends Base {
  readonly type: 'pending';
  readonly lines: readonly LedgerLine[];
}

export interface FactDocument extends Base {
  readonly type: 'fact';
  readonly fact: MovementFact;
}

/** Positions and times zero-padded, so ids sort as the numbers do (positions below 10^16, ms below 10^15). */
const pad = (n: number, width: number) => String(n).padStart(width, '0');

export const bookOf = (organizationId: string, mode: string) => `${organizationId}:${mode}`;
export const accountId = (book: string, account: string) => `acct:${book}:${account}`;
export const currencyId = (book: string, currency: string) => `cur:${book}:${currency}`;
export const sumId = (mode: string, currency: string) => `sum:${mode}:${currency}`;
export const pendingId = (book: string, transactionId: string) => `pending:${book}:${transactionId}`;
export const factId = (key: string) => `fact:${key}`;
/** The `book` of the sums, which belong to no organization: one page lists them. */
export const SUMS = '*';

/** A series of rows is named by the document whose figures it records. */
export const rowId = (series: string, position: number) => `row:${series}@${pad(position, 16)}`;
export const tickSeries = (book: string) => `tick:${book}`;
export const tickId = (book: string, at: number, position: number) =>
  `${tickSeries(book)}@${pad(at, 15)}@${pad(position, 16)}`;
/** Below every tick of the book at `at` or later. */
export const ticksBefore = (book: string, at: number) => `${tickSeries(book)}@${pad(at, 15)}`;

export const toBalances = (f: Figures): LedgerBalances => ({
  debits_posted: BigInt(f.debits_posted),
  credits_posted: BigInt(f.credits_posted),
  debits_pending: BigInt(f.debits_pending),
  credits_pending: BigInt(f.credits_pending),
});

export const toFigures = (b: LedgerBalances): Figures => ({
  debits_posted: b.debits_posted.toString(),
  credits_posted: b.credits_posted.toString(),
  debits_pending: b.debits_pending.toString(),
  credits_pending: b.credits_pending.toString(),
});

export const sameFigures = (a: LedgerBalances, b: LedgerBalances) => LEDGER_FIGURES.every((k) => a[k] === b[k]);
