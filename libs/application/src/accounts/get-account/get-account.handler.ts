import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { OpenAccountState } from '@app/domain/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { loadOpenAccount } from '../account';
import { GetAccountQuery } from './get-account.query';

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  execute({ actor, accountId }: GetAccountQuery): Promise<OpenAccountState> {
    return loadOpenAccount(this.store, actor, accountId);
  }
}
