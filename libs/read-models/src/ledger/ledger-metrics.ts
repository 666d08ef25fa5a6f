import { Inject, Injectable } from '@nestjs/common';
import { APP_METRICS, type AppMetrics } from '@app/platform/metrics/metrics';
import { RAW_READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { SUMS, toBalances, type CurrencyDocument } from './ledger-documents';
import { allOf } from './ledger-view';

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
 * Read from the ledger projection's sums (one document per mode and currency), as the projector
 * has them: a scrape does not wait for it. The difference is taken exactly; Prometheus keeps a
 * sample as a double, so an amount past 2^53 is shown to its precision.
 */
@Injectable()
export class LedgerMetrics {
  private last: { at: number; sums: Promise<CurrencyDocument[]> } | null = null;

  constructor(
    @Inject(RAW_READ_STORE) private readonly store: ReadStore,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    metrics.gauge({
      name: 'payments_ledger_amount',
      help: 'Ledger amounts in minor units per currency and mode, summed over organizations: debits and credits, posted and pending',
      labelNames: ['currency', 'mode', 'side', 'state'],
      read: async () =>
        (await this.sums()).flatMap((doc) => {
          const labels = { currency: doc.currency, mode: doc.mode ?? '' };
          const t = toBalances(doc);
          return [
            { labels: { ...labels, side: 'debit', state: 'posted' }, value: Number(t.debits_posted) },
            { labels: { ...labels, side: 'credit', state: 'posted' }, value: Number(t.credits_posted) },
            { labels: { ...labels, side: 'debit', state: 'pending' }, value: Number(t.debits_pending) },
            { labels: { ...labels, side: 'credit', state: 'pending' }, value: Number(t.credits_pending) },
          ];
        }),
    });
    metrics.gauge({
      name: 'payments_ledger_imbalance',
      help: 'Posted debits minus posted credits per currency and mode (0 unless the books are faulty)',
      labelNames: ['currency', 'mode'],
      read: async () =>
        (await this.sums()).map((doc) => {
          const t = toBalances(doc);
          return {
            labels: { currency: doc.currency, mode: doc.mode ?? '' },
            value: Number(t.debits_posted - t.credits_posted),
          };
        }),
    });
  }

  /** One read per scrape, shared by both gauges (500 ms measured with performance.now(): a duration, not the time of day). */
  private sums(): Promise<CurrencyDocument[]> {
    if (!this.last || performance.now() - this.last.at > 500)
      this.last = { at: performance.now(), sums: allOf<CurrencyDocument>(this.store, { book: SUMS, type: 'sum' }) };
    return this.last.sums;
  }
}
