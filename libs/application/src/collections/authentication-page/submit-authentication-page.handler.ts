import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException } from '../../command-handling';
import { AuthenticateIntentActionCommand } from '../authenticate-intent-action/authenticate-intent-action.command';
import { pageSubject, returnUrlFor } from './authentication-page';
import { SubmitAuthenticationPageCommand, type PageOutcome } from './submit-authentication-page.command';

@CommandHandler(SubmitAuthenticationPageCommand)
export class SubmitAuthenticationPageHandler implements ICommandHandler<SubmitAuthenticationPageCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ intentActionId: id, result, requestId }: SubmitAuthenticationPageCommand): Promise<PageOutcome> {
    const subject = await pageSubject(this.store, id, requestId, this.clock.now());
    if (subject.state !== 'open' || !subject.context)
      return { state: subject.state, action: subject.action, redirect: null };
    try {
      const action = await this.commands.execute(new AuthenticateIntentActionCommand(subject.context, id, result));
      return { state: 'used', action, redirect: returnUrlFor(action) };
    } catch (error) {
      // Another tab or the API answered first, or the page expired meanwhile: show what it is now.
      if (!(error instanceof DomainException && error.error.kind === 'conflict')) throw error;
      const now = await pageSubject(this.store, id, requestId, this.clock.now());
      return { state: now.state, action: now.action, redirect: null };
    }
  }
}
