import type { StatementLine } from './statement-month';
import type { StatementSource } from './statement-query';

/** One column per field of a JSON line (balance_after split in two); amounts in minor units. */
export const STATEMENT_CSV_COLUMNS = [
  'id',
  'created',
  'type',
  'amount',
  'fee',
  'transfer_id',
  'transaction_id',
  'payment_intent_id',
  'balance_after_current',
  'balance_after_available',
  'position',
] as const;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const field = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const row = (values: readonly unknown[]) => `${values.map(field).join(',')}\r\n`;

export const csvRow = (l: StatementLine) =>
  row([
    l.id,
    l.created,
    l.type,
    l.amount,
    l.fee,
    l.transfer_id,
    l.transaction_id,
    l.payment_intent_id,
    l.balance_after.current,
    l.balance_after.available,
    l.position,
  ]);

/** A trailing row: the figure's name in the `id` column, its value in `amount`. */
const total = (name: string, value: number) =>
  row([name, '', '', value, ...Array<string>(STATEMENT_CSV_COLUMNS.length - 4).fill('')]);

/** The statement as CSV chunks, a page of lines per chunk, then the totals (decisions §17). */
export async function* statementCsv(source: StatementSource): AsyncGenerator<string> {
  yield row(STATEMENT_CSV_COLUMNS);
  for await (const lines of source.pages()) yield lines.map(csvRow).join('');
  const s = await source.summary();
  yield (
    total('opening_balance', s.opening_balance) +
    total('credits_total', s.credits_total) +
    total('debits_total', s.debits_total) +
    total('closing_balance', s.closing_balance)
  );
}
