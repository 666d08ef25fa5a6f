import { Query } from '@nestjs/cqrs';
import type { PointInTime } from '@app/platform/event-store/point-in-time';
import type { LedgerBody } from './ledger.schema';

/** `as_of` (decisions §10): the last event at or before a log position, or at or before a time (ms). */
export type LedgerPoint = PointInTime;

/**
 * The ledger as `GET /ledger` shows it (decisions §12): its schema's type (ledger.schema.ts).
 * `position` is the log position the figures are as of: the ledger projection's at the read, or
 * the `as_of` point (0 before any money). Figures are bigints, exact at any size, written in JSON
 * as integers with every digit.
 */
export type LedgerView = LedgerBody;

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
