import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { intentActionDecider, type ExistingIntentAction, type IntentActionRecord } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, type CommandContext } from '../../command-handling';
import { ACQUIRER, type Acquirer } from '../acquirer.port';
import { loadAction, loadIntent } from '../load';
import { settleAction } from '../settle-action';
import { intentActionStream } from '../streams';
import { AuthorizeIntentActionCommand } from './authorize-intent-action.command';

@CommandHandler(AuthorizeIntentActionCommand)
export class AuthorizeIntentActionHandler implements ICommandHandler<AuthorizeIntentActionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACQUIRER) private readonly acquirer: Acquirer,
  ) {}

  async execute({ context, intentActionId }: AuthorizeIntentActionCommand): Promise<IntentActionRecord> {
    const state = await loadAction(this.store, context.actor, intentActionId);
    const action = state.status === 'pending' ? await this.authorize(context, state) : state.action;
    await settleAction(this.store, action, context);
    return action;
  }

  /** Only the action its intent was confirmed with is sent to the acquirer. */
  private async authorize(context: CommandContext, state: ExistingIntentAction): Promise<IntentActionRecord> {
    const { action } = state;
    const intent = await loadIntent(this.store, context.actor, action.payment_intent_id);
    if (intent.intent.intent_action_id !== action.id) return action;
    const answer = await this.acquirer.authorize({ token: state.acquirer_token, amount: action.charge_amount, currency: action.currency, mode: context.actor.mode });
    const base = { intent_action_id: action.id, now: Date.now() };
    const command = answer.approved ? { ...base, type: 'CompleteIntentAction' as const } : { ...base, type: 'FailIntentAction' as const, status_reason: answer.reason };
    const { state: after } = await handleCommand(this.store, intentActionStream(action.id), intentActionDecider, command, context);
    return after.status === 'none' ? action : after.action;
  }
}
