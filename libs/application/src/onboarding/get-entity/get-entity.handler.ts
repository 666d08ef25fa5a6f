import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ExistingEntity } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { loadEntity } from '../entity';
import { GetEntityQuery } from './get-entity.query';

@QueryHandler(GetEntityQuery)
export class GetEntityHandler implements IQueryHandler<GetEntityQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  execute({ actor, entityId }: GetEntityQuery): Promise<ExistingEntity> {
    return loadEntity(this.store, actor, entityId);
  }
}
