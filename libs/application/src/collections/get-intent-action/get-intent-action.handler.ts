import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { loadAction, viewOf, type IntentActionView } from '../load';
import { GetIntentActionQuery } from './get-intent-action.query';

@QueryHandler(GetIntentActionQuery)
export class GetIntentActionHandler implements IQueryHandler<GetIntentActionQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, intentActionId }: GetIntentActionQuery): Promise<IntentActionView> {
    const { action } = await loadAction(this.store, actor, intentActionId);
    return viewOf(this.store, actor, action);
  }
}
