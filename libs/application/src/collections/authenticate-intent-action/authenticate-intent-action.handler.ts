import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { domainError, notFound } from '@app/domain';
import { intentActionDecider } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { AuthorizeIntentActionCommand } from '../authorize-intent-action/authorize-intent-action.command';
import { loadAction } from '../load';
import { intentActionStream } from '../streams';
import { AuthenticateIntentActionCommand } from './authenticate-intent-action.command';

@CommandHandler(AuthenticateIntentActionCommand)
export class AuthenticateIntentActionHandler implements ICommandHandler<AuthenticateIntentActionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, intentActionId: id, result }: AuthenticateIntentActionCommand) {
    // The simulator never moves a live resource (decisions §1).
    if (context.actor.mode !== 'sandbox')
      throw new DomainException(
        domainError('forbidden', 'sandbox_only', 'Only sandbox intent actions are authenticated here'),
      );
    await loadAction(this.store, context.actor, id);
    const authenticate = {
      type: 'AuthenticateIntentAction' as const,
      intent_action_id: id,
      result,
      now: this.clock.now(),
    };
    const { state } = await handleCommand(
      this.store,
      intentActionStream(id),
      intentActionDecider,
      authenticate,
      context,
    );
    if (state.status === 'none') throw new DomainException(notFound('intent_action', id));
    return this.commands.execute(new AuthorizeIntentActionCommand(context, id));
  }
}
