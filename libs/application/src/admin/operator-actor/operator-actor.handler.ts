import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { modeOf } from '@app/platform/event-store/event-mode';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, foldStream, type Actor } from '../../command-handling';
import { entityStreamOf } from '../../onboarding/entity';
import { isTransferId, transferStream } from '../../transfers/streams';
import { OperatorActorQuery, type OperatedResource } from './operator-actor.query';

/** Only the owner matters here: the fold keeps none of the events (and is cached per stream). */
const ownerOnly = { initialState: null, evolve: (state: null) => state };

const streamOf: Record<OperatedResource, (id: string) => string> = {
  entity: entityStreamOf,
  transfer: (id) => {
    if (!isTransferId(id)) throw new DomainException(notFound('transfer', id));
    return transferStream(id);
  },
};

@QueryHandler(OperatorActorQuery)
export class OperatorActorHandler implements IQueryHandler<OperatorActorQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ resource, id }: OperatorActorQuery): Promise<Actor> {
    const { owner } = await foldStream(this.store, streamOf[resource](id), ownerOnly);
    if (!owner) throw new DomainException(notFound(resource, id));
    return { kind: 'operator', organizationId: owner.organization_id, mode: modeOf(owner), id: 'operator' };
  }
}
