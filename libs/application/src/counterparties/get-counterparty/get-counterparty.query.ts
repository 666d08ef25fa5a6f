import { Query } from '@nestjs/cqrs';
import type { CounterpartyRecord } from '@app/domain';
import type { Actor } from '../../command-handling';

/** One counterparty folded from its stream; `entityId` (API key) confirms the owner, else 404. */
export class GetCounterpartyQuery extends Query<CounterpartyRecord> {
  constructor(
    readonly actor: Actor,
    readonly counterpartyId: string,
    readonly entityId?: string,
  ) {
    super();
  }
}
