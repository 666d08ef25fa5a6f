import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { intentActionDecider, type IntentActionRecord } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand, type CommandContext } from '../../command-handling';
import { AuthorizeIntentActionCommand } from '../authorize-intent-action/authorize-intent-action.command';
import { loadAction, loadIntent } from '../load';
import { failUnconfirmable } from '../settle-action';
import { intentActionStream } from '../streams';
import { VerifyIntentActionCommand } from './verify-intent-action.command';

@CommandHandler(VerifyIntentActionCommand)
export class VerifyIntentActionHandler implements ICommandHandler<VerifyIntentActionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, intentActionId: id }: VerifyIntentActionCommand): Promise<IntentActionRecord> {
    const state = await loadAction(this.store, context.actor, id);
    if (state.status === 'completed' || state.status === 'failed') return state.action;
    if (state.status === 'pending_user_action') await this.expireIfLate(context, id);
    else await this.failIfOrphan(context, state.action);
    return this.commands.execute(new AuthorizeIntentActionCommand(context, id));
  }

  private async expireIfLate(context: CommandContext, id: string): Promise<void> {
    await handleCommand(
      this.store,
      intentActionStream(id),
      intentActionDecider,
      { type: 'ExpireAuthentication', intent_action_id: id, now: this.clock.now() },
      context,
    );
  }

  /** An action whose intent was confirmed by another one will never be authorized: it fails. */
  private async failIfOrphan(context: CommandContext, action: IntentActionRecord): Promise<void> {
    const intent = await loadIntent(this.store, context.actor, action.payment_intent_id);
    if (intent.intent.intent_action_id === action.id) return;
    await failUnconfirmable(this.store, action.id, this.clock.now(), context);
  }
}
