import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { pageSubject, type AuthenticationPage } from './authentication-page';
import { GetAuthenticationPageQuery } from './get-authentication-page.query';

@QueryHandler(GetAuthenticationPageQuery)
export class GetAuthenticationPageHandler implements IQueryHandler<GetAuthenticationPageQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ intentActionId }: GetAuthenticationPageQuery): Promise<AuthenticationPage> {
    const { state, action } = await pageSubject(this.store, intentActionId, 'page', this.clock.now());
    return { state, action };
  }
}
