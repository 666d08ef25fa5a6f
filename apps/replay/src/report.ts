import type { LedgerRow } from './ledger-check';

export interface CollectionRow {
  readonly collection: string;
  readonly rebuilt: number;
  readonly live: number;
  readonly digest: string;
  readonly same: boolean;
}

export interface Finding {
  readonly kind: 'chain' | 'read_model' | 'ledger' | 'checkpoint';
  readonly resource: string;
  readonly message: string;
}

export interface Report {
  readonly head: number;
  readonly events: number;
  readonly streams: number;
  /** The log pass (read, chains, ledger, projections) and the whole run, in ms. */
  readonly passMs: number;
  readonly totalMs: number;
  readonly collections: readonly CollectionRow[];
  readonly findings: readonly Finding[];
  readonly ledger: readonly LedgerRow[];
  /** The checkpoint check's one line (issue 23): which checkpoint, and whether the log gives it. */
  readonly checkpoint?: string;
}

/** The summary tables, then every finding on its own line (the resource first, so it can be grepped). */
export function renderReport(out: (line: string) => void, report: Report): void {
  const rate = (ms: number) => Math.round(report.events / Math.max(ms / 1000, 0.001));
  out(`replayed ${report.events} events of ${report.streams} streams up to position ${report.head}`);
  out(
    `log pass ${(report.passMs / 1000).toFixed(1)} s (${rate(report.passMs)} events/s), whole run ${(report.totalMs / 1000).toFixed(1)} s (${rate(report.totalMs)} events/s), ` +
      `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
  out(
    table(
      ['collection', 'rebuilt', 'live', 'digest', 'result'],
      report.collections.map((c) => [
        c.collection,
        String(c.rebuilt),
        String(c.live),
        c.digest.slice(0, 16),
        c.same ? 'same' : 'DIFFERENT',
      ]),
    ),
  );
  if (report.ledger.length) {
    const rows = report.ledger.map((r) => [
      r.book,
      r.currency,
      r.account,
      ...[r.debits_posted, r.credits_posted, r.debits_pending, r.credits_pending].map(String),
    ]);
    out(
      table(
        [
          'organization/mode',
          'currency',
          'ledger account',
          'debits posted',
          'credits posted',
          'debits pending',
          'credits pending',
        ],
        rows,
      ),
    );
  }
  if (report.checkpoint) out(report.checkpoint);
  for (const f of report.findings) out(`DIFFERENCE ${f.kind}: ${f.resource}: ${f.message}`);
  const broken = report.findings.filter((f) => f.kind === 'chain').length;
  out(
    report.findings.length
      ? `FAILED: ${report.findings.length} difference(s), ${broken} in hash chains`
      : 'OK: chains whole, read models equal the replay, ledger balances',
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
