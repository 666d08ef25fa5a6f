import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { counterpartyDecider, notFound, type CounterpartyRecord } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, forbidden, loadAggregate } from '../../command-handling';
import { scopeOf } from '../counterparty-scope';
import { counterpartyStream, isCounterpartyId } from '../streams';
import { GetCounterpartyQuery } from './get-counterparty.query';

@QueryHandler(GetCounterpartyQuery)
export class GetCounterpartyHandler implements IQueryHandler<GetCounterpartyQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, counterpartyId: id, entityId }: GetCounterpartyQuery): Promise<CounterpartyRecord> {
    const loaded = isCounterpartyId(id)
      ? await loadAggregate(this.store, counterpartyStream(id), counterpartyDecider, {
          actor: { ...actor, entityId: undefined },
        })
      : null;
    if (!loaded || loaded.state.status === 'none') throw new DomainException(notFound('counterparty', id));
    const scope = scopeOf(actor, entityId);
    if (scope && scope.entity_id !== loaded.state.entity_id)
      throw scope.kind === 'token' ? forbidden() : new DomainException(notFound('counterparty', id));
    return loaded.state;
  }
}
