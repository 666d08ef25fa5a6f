import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { GetLedgerQuery, type LedgerView } from './get-ledger.query';
import { RAW_READ_STORE, READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { bookOf } from './ledger-documents';
import { ledgerAt, latestTick, positionOf } from './ledger-view';
import { ledgerProjection } from './ledger.projection';

/**
 * `GET /ledger` and the operator's ledger (decisions §12), read from the ledger projection: the
 * first read waits, as every list does, until the projection includes every write acknowledged
 * before the read began (decisions §2); the figures are then those at the projection's checkpoint
 * (or at the `as_of` point below it), read without waiting again.
 */
@QueryHandler(GetLedgerQuery)
export class GetLedgerHandler implements IQueryHandler<GetLedgerQuery> {
  constructor(
    @Inject(READ_STORE) private readonly consistent: ReadStore,
    @Inject(RAW_READ_STORE) private readonly raw: ReadStore,
  ) {}

  async execute({ organizationId, mode, asOf }: GetLedgerQuery): Promise<LedgerView> {
    const book = bookOf(organizationId, mode);
    await latestTick(this.consistent, book);
    const head = await this.raw.getCheckpoint(ledgerProjection.name);
    return ledgerAt(this.raw, book, asOf ? await positionOf(this.raw, book, asOf, head) : head);
  }
}
