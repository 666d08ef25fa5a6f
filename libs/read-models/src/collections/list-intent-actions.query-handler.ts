import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import type { IntentActionDocument } from './intent-action.projection';
import { ListIntentActionsQuery } from './list-intent-actions.query';

@QueryHandler(ListIntentActionsQuery)
export class ListIntentActionsHandler implements IQueryHandler<ListIntentActionsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListIntentActionsQuery): Promise<Page<IntentActionDocument>> {
    return this.readStore.find<IntentActionDocument>('intent_actions', { ...page, filter });
  }
}
