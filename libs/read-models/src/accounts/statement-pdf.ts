import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { currencyInfo } from '@app/domain/accounts';
import type { StatementLine } from './statement-month';
import type { StatementSource } from './statement-query';

/** `12345` USD → `123.45`: minor units as a person reads them (the CSV and JSON keep minor units). */
export function formatAmount(minor: number, currency: string): string {
  const digits = currencyInfo(currency)?.minor_units ?? 0;
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  return digits ? `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}` : `${sign}${text}`;
}

const iso = (ms: number) => new Date(ms).toISOString();
const SIGN: Record<string, string> = { credit: '+', reversal: '+', debit: '-' };

/** A line as one row of fixed-width text (Courier), so columns line up without a table engine. */
const lineText = (l: StatementLine, currency: string) =>
  [
    iso(l.created).slice(0, 19).replace('T', ' '),
    l.type.padEnd(8),
    `${SIGN[l.type] ?? ''}${formatAmount(l.amount, currency)}`.padStart(16),
    formatAmount(l.balance_after.current, currency).padStart(16),
    ` ${l.transfer_id ?? l.transaction_id ?? l.payment_intent_id ?? ''}`,
  ].join('  ');

/**
 * Writes the statement as a PDF a person reads (decisions §17): account and period first, the lines
 * as they stream (waiting for `out` to drain between pages, so a long month never piles up in
 * memory), then the balances and the signed checkpoint that proves the last line.
 */
export async function writeStatementPdf(source: StatementSource, out: Writable): Promise<void> {
  const { head } = source;
  // Required on the first PDF, not imported: pdfkit and its fonts are about 11 MB of the API's memory (issue 26), for a rare request.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: { Title: `Statement ${head.account_id} ${iso(head.period.from).slice(0, 7)}` },
  });
  const ended = once(out, 'finish');
  doc.pipe(out);
  doc.font('Helvetica-Bold').fontSize(16).text('Account statement');
  doc.font('Helvetica').fontSize(10);
  doc.text(`Account: ${head.account_id} (${head.currency})`);
  doc.text(`Period: ${iso(head.period.from)} to ${iso(head.period.to)} (UTC, end exclusive)`);
  doc.moveDown().font('Courier').fontSize(7.5);
  doc.text(
    ['Date (UTC)'.padEnd(19), 'Type    ', 'Amount'.padStart(16), 'Balance after'.padStart(16), ' Reference'].join('  '),
  );
  for await (const lines of source.pages()) {
    for (const l of lines) doc.text(lineText(l, head.currency));
    if (out.writableNeedDrain) await once(out, 'drain');
  }
  const s = await source.summary();
  const money = (minor: number) => `${formatAmount(minor, head.currency)} ${head.currency} (${minor} minor units)`;
  doc.moveDown().font('Helvetica').fontSize(10);
  doc.text(`Opening balance: ${money(s.opening_balance)}`);
  doc.text(`Credits total: ${money(s.credits_total)}`);
  doc.text(`Debits total: ${money(s.debits_total)}`);
  doc.font('Helvetica-Bold').text(`Closing balance: ${money(s.closing_balance)}`);
  doc.font('Helvetica').moveDown();
  doc.text(`Log positions: ${s.positions.first ?? '-'} to ${s.positions.last ?? '-'}`);
  if (s.checkpoint) {
    doc.text(
      `Signed checkpoint: tree size ${s.checkpoint.tree_size}, up to position ${s.checkpoint.last_position}, signed ${iso(s.checkpoint.timestamp)}`,
    );
    doc
      .font('Courier')
      .fontSize(8)
      .text(`Root hash: ${s.checkpoint.root_hash}`)
      .text(`Signature (Ed25519): ${s.checkpoint.signature}`)
      .text(`Key id: ${s.checkpoint.key_id}`);
  } else {
    doc.text(
      'Signed checkpoint: none covers the last line yet (one is signed shortly after each write); fetch the statement again for its proof.',
    );
  }
  doc.end();
  await ended;
}
