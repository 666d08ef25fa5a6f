import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { bookKey, foldLedgerEvent, newLedgers, type LedgerBalances, type LedgerFault, type Ledgers, type MoneyEvent } from '@app/domain/ledger';
import { modeOf } from '@app/platform/event-store/event-mode';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/platform/event-store/event-store.port';
import { upcast } from '@app/platform/event-store/upcasters';
import { logger } from '@app/platform/logging/logger';
import { GetLedgerQuery, type LedgerFigures, type LedgerPoint, type LedgerView } from './get-ledger.query';

const BATCH = 2_000;

/** The books folded from position 0 up to `position`. */
interface Fold {
  readonly ledgers: Ledgers;
  /** The position of the last event folded; 0 before any. */
  position: number;
  /** The latest `occurred_at` folded: a time point at or after it is a continuation of this fold. */
  latest: number;
}

const newFold = (): Fold => ({ ledgers: newLedgers(), position: 0, latest: -Infinity });

/**
 * Reads the ledger (decisions §12) by folding the log with the domain's `foldLedgerEvent`, from
 * position 0 to the head read when the query runs (or to the `as_of` point): whatever a client
 * was answered 2xx for sits at or below that head, from any process, so the figures include it
 * with no wait on a read model.
 *
 * One fold per process is kept and read on incrementally: a read at the head folds only what was
 * appended since the last one. Reads of it are serialized, and the answer is copied out before the
 * next read can move it. An `as_of` point at or after that fold continues it (it is a prefix of the
 * log either way); an earlier point folds its own copy from position 0, so such a read costs one
 * pass over the log up to the point.
 *
 * A ledger fault (a movement the log never described, a balance the postings do not give) never
 * fails the read: the figures are what the postings give, and the fault is logged with its
 * transaction id once per process, by the shared fold (`npm run replay -- --verify` reports it).
 */
@QueryHandler(GetLedgerQuery)
export class GetLedgerHandler implements IQueryHandler<GetLedgerQuery> {
  private readonly shared = newFold();
  private turn: Promise<unknown> = Promise.resolve();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ organizationId, mode, asOf }: GetLedgerQuery): Promise<LedgerView> {
    const key = bookKey(organizationId, mode);
    const fromShared = await this.exclusive(async () => {
      if (!continues(this.shared, asOf)) return null;
      await this.advance(this.shared, asOf, true);
      return view(this.shared, key);
    });
    if (fromShared) return fromShared;
    const own = newFold();
    await this.advance(own, asOf, false);
    return view(own, key);
  }

  /**
   * Every book's figures per currency and mode, summed across organizations, at the head of the
   * log (the shared fold, read on): the ledger's metrics (ledger-metrics.ts).
   */
  async totals(): Promise<{ readonly position: number; readonly totals: readonly LedgerTotal[] }> {
    return this.exclusive(async () => {
      await this.advance(this.shared, null, true);
      const sums = new Map<string, LedgerTotal>();
      for (const [key, book] of this.shared.ledgers.books) {
        const mode = key.slice(key.lastIndexOf('/') + 1);
        for (const [currency, b] of book.currencies) {
          const id = `${currency}/${mode}`;
          const sum = sums.get(id) ?? { currency, mode, debits_posted: 0, credits_posted: 0, debits_pending: 0, credits_pending: 0 };
          sums.set(id, {
            ...sum,
            debits_posted: sum.debits_posted + b.debits_posted,
            credits_posted: sum.credits_posted + b.credits_posted,
            debits_pending: sum.debits_pending + b.debits_pending,
            credits_pending: sum.credits_pending + b.credits_pending,
          });
        }
      }
      return { position: this.shared.position, totals: [...sums.values()] };
    });
  }

  /** One read of the shared fold at a time: each reads on from where the last stopped. */
  private exclusive<T>(read: () => Promise<T>): Promise<T> {
    const run = this.turn.then(read);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** Folds on up to the head read now (events appended meanwhile wait for the next read), or to the point. */
  private async advance(fold: Fold, asOf: LedgerPoint | null, report: boolean): Promise<void> {
    const head = await this.store.headPosition();
    for (;;) {
      const batch = await this.store.readAll({ after: fold.position, limit: BATCH });
      if (!batch.length) return;
      for (const recorded of batch) {
        if (recorded.position > head || beyond(recorded, asOf)) return;
        const fault = foldEvent(fold, recorded);
        if (fault && report) reportFault(fault, recorded);
      }
    }
  }
}

/** Whether the point lies at or after everything the fold has read. */
function continues(fold: Fold, asOf: LedgerPoint | null): boolean {
  if (!asOf) return true;
  return 'position' in asOf ? asOf.position >= fold.position : asOf.time >= fold.latest;
}

/** As a stream is read as of a point (upToPoint), the log is cut at the first event past it. */
function beyond(event: RecordedEvent, asOf: LedgerPoint | null): boolean {
  if (!asOf) return false;
  return 'position' in asOf ? event.position > asOf.position : event.metadata.occurred_at > asOf.time;
}

function foldEvent(fold: Fold, recorded: RecordedEvent): LedgerFault | null {
  // The product's store reads upcast already; upcasting again is a no-op, and a raw store reads right too.
  const event = upcast(recorded);
  const key = bookKey(event.metadata.organization_id, modeOf(event.metadata, event.data));
  const fault = foldLedgerEvent(fold.ledgers, key, event as unknown as MoneyEvent);
  fold.position = recorded.position;
  fold.latest = Math.max(fold.latest, recorded.metadata.occurred_at);
  return fault;
}

function reportFault(fault: LedgerFault, event: RecordedEvent): void {
  logger.error(
    { transaction_id: fault.transaction_id, organization_id: event.metadata.organization_id, mode: modeOf(event.metadata, event.data), position: event.position, event_type: event.type },
    `ledger fault: ${fault.message}`,
  );
}

/** One currency's figures in one mode, summed over every organization's books. */
export interface LedgerTotal extends LedgerFigures {
  readonly currency: string;
  readonly mode: string;
}

const figures = (b: LedgerBalances): LedgerFigures => ({ debits_posted: b.debits_posted, credits_posted: b.credits_posted, debits_pending: b.debits_pending, credits_pending: b.credits_pending });

/** Code-point order, the same on every machine (no locale). */
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A copy of one book's figures: the shared fold moves on after the read. */
function view(fold: Fold, key: string): LedgerView {
  const book = fold.ledgers.books.get(key);
  if (!book) return { position: fold.position, currencies: [], accounts: [] };
  return {
    position: fold.position,
    currencies: [...book.currencies.entries()].sort(([a], [b]) => byCode(a, b)).map(([currency, totals]) => ({ currency, ...figures(totals) })),
    accounts: [...book.accounts.values()].sort((a, b) => byCode(a.id, b.id)).map((a) => ({ id: a.id, kind: a.kind, currency: a.currency, ...figures(a) })),
  };
}
