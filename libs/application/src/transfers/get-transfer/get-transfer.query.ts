import { Query } from '@nestjs/cqrs';
import type { TransferRecord } from '@app/domain/transfers';
import type { Actor } from '../../command-handling';

/** One transfer folded from its stream; with an API key `entityId` must name its owner (else 404). */
export class GetTransferQuery extends Query<TransferRecord> {
  constructor(
    readonly actor: Actor,
    readonly transferId: string,
    readonly entityId: string,
  ) {
    super();
  }
}
