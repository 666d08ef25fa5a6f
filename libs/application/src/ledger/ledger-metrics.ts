import { Inject, Injectable } from '@nestjs/common';
import { APP_METRICS, type AppMetrics } from '@app/platform/metrics/metrics';
import { GetLedgerHandler, type LedgerTotal } from './get-ledger/get-ledger.handler';

/**
 * The ledger's metrics, per currency and mode, summed over organizations (a series per
 * organization would grow with the customers; the books of one are `GET /admin/organizations/{id}/ledger`):
 *
 * - `payments_ledger_amount{currency, mode, side="debit|credit", state="posted|pending"}`, in minor
 *   units: what moved through the books since the log began;
 * - `payments_ledger_imbalance{currency, mode}`: posted debits minus posted credits, 0 by
 *   construction (double entry): anything else is a fault worth an alert, and
 *   `npm run replay -- --verify` names its transaction.
 *
 * Read from the query's shared fold, moved on to the head at each scrape (incremental; a first
 * scrape on a long log may outlast the scrape's bound, and the next one finds the fold done).
 */
@Injectable()
export class LedgerMetrics {
  private last: { at: number; totals: Promise<readonly LedgerTotal[]> } | null = null;

  constructor(
    private readonly ledger: GetLedgerHandler,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    metrics.gauge({
      name: 'payments_ledger_amount',
      help: 'Ledger amounts in minor units per currency and mode, summed over organizations: debits and credits, posted and pending',
      labelNames: ['currency', 'mode', 'side', 'state'],
      read: async () =>
        (await this.totals()).flatMap((t) => {
          const labels = { currency: t.currency, mode: t.mode };
          return [
            { labels: { ...labels, side: 'debit', state: 'posted' }, value: t.debits_posted },
            { labels: { ...labels, side: 'credit', state: 'posted' }, value: t.credits_posted },
            { labels: { ...labels, side: 'debit', state: 'pending' }, value: t.debits_pending },
            { labels: { ...labels, side: 'credit', state: 'pending' }, value: t.credits_pending },
          ];
        }),
    });
    metrics.gauge({
      name: 'payments_ledger_imbalance',
      help: 'Posted debits minus posted credits per currency and mode (0 unless the books are faulty)',
      labelNames: ['currency', 'mode'],
      read: async () => (await this.totals()).map((t) => ({ labels: { currency: t.currency, mode: t.mode }, value: t.debits_posted - t.credits_posted })),
    });
  }

  /** One fold read per scrape, shared by both gauges. */
  private totals(): Promise<readonly LedgerTotal[]> {
    if (!this.last || Date.now() - this.last.at > 500) this.last = { at: Date.now(), totals: this.ledger.totals().then((r) => r.totals) };
    return this.last.totals;
  }
}
