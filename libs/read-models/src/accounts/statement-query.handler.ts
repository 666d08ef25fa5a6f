import { Inject } from '@nestjs/common';
import { QueryBus, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { invalid } from '@app/domain';
import { GetAccountQuery } from '@app/application/accounts';
import { GetEventProofQuery, type EventProof } from '@app/application/audit/get-event-proof/get-event-proof.query';
import { DomainException, type Actor } from '@app/application/command-handling';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { currentBalanceAt, monthEntries, periodOf, StatementTotals, type StatementPeriod } from './statement-month';
import { GetStatementQuery, type StatementSource, type StatementSummary } from './statement-query';

/** The proof's refusals that mean "not signed yet" (or not yet indexed for proofs): the statement says null. */
const NOT_YET = new Set(['event_not_checkpointed', 'event_not_found']);

/**
 * A monthly statement (decisions §17) from the statement read model alone: its lines are the
 * account's entries of the month, each with the balance the account's own fold recorded after it,
 * so the closing balance is the account's `as_of` the month's end by construction. A month without
 * entries reads its one balance from the ledger projection. The proof is GET /events/{id}/proof's.
 */
@QueryHandler(GetStatementQuery)
export class GetStatementHandler implements IQueryHandler<GetStatementQuery> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ actor, accountId, month }: GetStatementQuery): Promise<StatementSource> {
    const period = periodOf(month);
    if (!period) throw new DomainException(invalid('month', 'must be a UTC calendar month, YYYY-MM'));
    // The month under way is allowed (its statement so far); a later one has nothing to say yet.
    if (period.from > this.clock.now()) throw new DomainException(invalid('month', 'must not be in the future'));
    // Tenancy as for the account itself: another organization's is not found, another entity's forbidden.
    const account = await this.queries.execute(new GetAccountQuery(actor, accountId));
    const totals = new StatementTotals();
    const { store } = this;
    return {
      head: { account_id: accountId, currency: account.currency, period: { from: period.from, to: period.to } },
      async *pages() {
        for await (const entries of monthEntries(store, accountId, actor.mode, month)) {
          const lines = entries.flatMap((e) => totals.add(e) ?? []);
          if (lines.length) yield lines;
        }
      },
      summary: () => this.summary(actor, accountId, period, totals),
    };
  }

  private async summary(
    actor: Actor,
    accountId: string,
    period: StatementPeriod,
    totals: StatementTotals,
  ): Promise<StatementSummary> {
    const balances = await totals.balances(() =>
      currentBalanceAt(this.store, actor.organizationId, actor.mode, accountId, period.to - 1),
    );
    const proof = totals.lastEventId ? await this.proof(actor, `evt_${totals.lastEventId}`) : null;
    return {
      ...balances,
      credits_total: totals.credits,
      debits_total: totals.debits,
      positions: { first: totals.first, last: totals.last },
      checkpoint: proof?.checkpoint ?? null,
      proof,
    };
  }

  private async proof(actor: Actor, eventId: string): Promise<EventProof | null> {
    try {
      return await this.queries.execute(new GetEventProofQuery(actor, eventId));
    } catch (error) {
      if (error instanceof DomainException && NOT_YET.has(error.error.code)) return null;
      throw error;
    }
  }
}
