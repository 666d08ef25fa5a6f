import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { isTransfer, transferDecider, type TransferRecord } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate } from '../../command-handling';
import { isTransferId, transferStream } from '../streams';
import { GetTransferQuery } from './get-transfer.query';

@QueryHandler(GetTransferQuery)
export class GetTransferHandler implements IQueryHandler<GetTransferQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, transferId: id, entityId }: GetTransferQuery): Promise<TransferRecord> {
    const loaded = isTransferId(id)
      ? await loadAggregate(this.store, transferStream(id), transferDecider, { actor })
      : null;
    // A keyed stream answers for its reference's transfer only: another time part is another id.
    if (
      !loaded ||
      !isTransfer(loaded.state) ||
      loaded.state.transfer.id !== id ||
      loaded.state.transfer.entity_id !== entityId
    )
      throw new DomainException(notFound('transfer', id));
    return loaded.state.transfer;
  }
}
