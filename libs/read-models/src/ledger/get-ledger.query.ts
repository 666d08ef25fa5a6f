import { Query } from '@nestjs/cqrs';
import type { LedgerAccountKind } from '@app/domain/ledger';
import type { PointInTime } from '@app/platform/event-store/point-in-time';

/** `as_of` (decisions §10): the last event at or before a log position, or at or before a time (ms). */
export type LedgerPoint = PointInTime;

/** Exact at any size (decisions §12): written in JSON as integers with every digit. */
export interface LedgerFigures {
  readonly debits_posted: bigint;
  readonly credits_posted: bigint;
  readonly debits_pending: bigint;
  readonly credits_pending: bigint;
}

/** The ledger as `GET /ledger` shows it (decisions §12): currencies by code, accounts by id. */
export interface LedgerView {
  /** The log position the figures are as of: the ledger projection's at the read, or the `as_of` point (0 before any money). */
  readonly position: number;
  readonly currencies: ReadonlyArray<{ readonly currency: string } & LedgerFigures>;
  readonly accounts: ReadonlyArray<
    { readonly id: string; readonly kind: LedgerAccountKind; readonly currency: string } & LedgerFigures
  >;
}

/** One organization and mode's books, at the log head or as of a point (`GET /ledger`, `GET /admin/organizations/{id}/ledger`). */
export class GetLedgerQuery extends Query<LedgerView> {
  constructor(
    readonly organizationId: string,
    readonly mode: 'sandbox' | 'live',
    /** Null: at the head of the log, which includes every write acknowledged before the read. */
    readonly asOf: LedgerPoint | null = null,
  ) {
    super();
  }
}
