import type { LedgerTotals } from './ledger-check';

export interface CollectionRow {
  readonly collection: string;
  readonly rebuilt: number;
  readonly live: number;
  readonly digest: string;
  readonly same: boolean;
}

export interface Finding {
  readonly kind: 'chain' | 'read_model' | 'ledger';
  readonly resource: string;
  readonly message: string;
}

export interface Report {
  readonly head: number;
  readonly events: number;
  readonly streams: number;
  readonly collections: readonly CollectionRow[];
  readonly findings: readonly Finding[];
  readonly totals: Map<string, LedgerTotals>;
}

/** The summary table, then every finding on its own line (the resource first, so it can be grepped). */
export function renderReport(out: (line: string) => void, report: Report): void {
  out(`replayed ${report.events} events of ${report.streams} streams up to position ${report.head}`);
  out(table(['collection', 'rebuilt', 'live', 'digest', 'result'], report.collections.map((c) => [c.collection, String(c.rebuilt), String(c.live), c.digest.slice(0, 16), c.same ? 'same' : 'DIFFERENT'])));
  const ledger = [...report.totals].map(([key, t]) => [key, ...[t.funded, t.collected, t.paidOut, t.fees, t.refunds, t.balances, t.openHolds].map(String)]);
  if (ledger.length) out(table(['organization currency', 'funded', 'collected', 'paid out', 'fees', 'refunds', 'balances', 'open holds'], ledger));
  for (const f of report.findings) out(`DIFFERENCE ${f.kind}: ${f.resource}: ${f.message}`);
  const broken = report.findings.filter((f) => f.kind === 'chain').length;
  out(report.findings.length ? `FAILED: ${report.findings.length} difference(s), ${broken} in hash chains` : 'OK: chains whole, read models equal the replay, ledger balances');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
