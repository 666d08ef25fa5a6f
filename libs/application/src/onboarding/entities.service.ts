import { Inject, Injectable } from '@nestjs/common';
import type { ExistingEntity } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import type { CommandContext } from '../command-handling';
import { loadEntity } from './entity';

/**
 * Only the webhook test samples (apps/api/src/webhooks) still call this; the API's own entity
 * reads go through GetEntityQuery. Remove once the samples dispatch that query.
 */
@Injectable()
export class EntitiesService {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  get(context: Pick<CommandContext, 'actor'>, entityId: string): Promise<ExistingEntity> {
    return loadEntity(this.store, context.actor, entityId);
  }
}
