import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  intentActionDecider,
  invalidState,
  paymentIntentDecider,
  summarizeCard,
  type CardSummary,
  type CollectionFeeSchedule,
  type IntentActionRecord,
} from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { accountDecider } from '@app/domain/accounts';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, foldStream, handleCommand, type CommandContext } from '../../command-handling';
import { accountStream } from '../../accounts/streams';
import { ACQUIRER, type Acquirer, type Tokenization } from '../acquirer.port';
import { AuthorizeIntentActionCommand } from '../authorize-intent-action/authorize-intent-action.command';
import { CardDecryption } from '../card-decryption';
import { AUTHENTICATION_TTL_MS, COLLECTION_FEES, THREE_DS_BASE_URL } from '../collections-config';
import { loadIntent } from '../load';
import { failUnconfirmable } from '../settle-action';
import { intentActionStream, paymentIntentStream } from '../streams';
import { readCard } from './read-card';
import { ConfirmPaymentIntentCommand, type IntentActionInput } from './confirm-payment-intent.command';
import { newAction } from './new-action';

/**
 * Checks, decrypts and tokenizes the card (it is dropped when this returns), records the action,
 * points the intent at it, and lets the acquirer decide at once when no 3-D Secure is needed.
 */
@CommandHandler(ConfirmPaymentIntentCommand)
export class ConfirmPaymentIntentHandler implements ICommandHandler<ConfirmPaymentIntentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACQUIRER) private readonly acquirer: Acquirer,
    @Inject(COLLECTION_FEES) private readonly fees: CollectionFeeSchedule,
    @Inject(THREE_DS_BASE_URL) private readonly baseUrl: string,
    private readonly decryption: CardDecryption,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, paymentIntentId, input }: ConfirmPaymentIntentCommand): Promise<IntentActionRecord> {
    const intent = await loadIntent(this.store, context.actor, paymentIntentId);
    if (intent.status !== 'requires_action') throw new DomainException(invalidState(intent, 'confirmed'));
    const { summary, tokenization } = await this.cardStep(context, input);
    const action = newAction(intent.intent, input, summary, this.fees, this.baseUrl, this.clock.now());
    const failure = 'declined' in tokenization ? tokenization.declined : null;
    const token = 'token' in tokenization ? tokenization.token : null;
    const expires = action.status === 'pending_user_action' ? action.created + AUTHENTICATION_TTL_MS : null;
    const create = {
      type: 'CreateIntentAction' as const,
      action,
      acquirer_token: token,
      authentication_expires: expires,
      failure,
    };
    await handleCommand(this.store, intentActionStream(action.id), intentActionDecider, create, context, {
      entityId: action.entity_id,
    });
    await this.pointIntentAt(context, action);
    // Waiting for 3-D Secure: returned as is; otherwise decided (and settled) before the answer.
    return this.commands.execute(new AuthorizeIntentActionCommand(context, action.id));
  }

  /** The card exists only inside this call: validated, summarized, handed to the acquirer. */
  private async cardStep(
    context: CommandContext,
    input: IntentActionInput,
  ): Promise<{ summary: CardSummary | null; tokenization: Tokenization }> {
    const card = await readCard(this.decryption, context.actor, input, this.clock.date());
    return {
      summary: card ? summarizeCard(card) : null,
      tokenization: await this.acquirer.tokenize(card, context.actor.mode),
    };
  }

  /** Another confirmation may have won the intent meanwhile: this action then fails, and the caller gets the 409. */
  private async pointIntentAt(context: CommandContext, action: IntentActionRecord): Promise<void> {
    // The account's revision now: the intent's credit and refunds come after it, so their checks read its log from there.
    const { revision } = await foldStream(this.store, accountStream(action.account_id), accountDecider);
    const confirm = {
      type: 'ConfirmPaymentIntent' as const,
      payment_intent_id: action.payment_intent_id,
      intent_action_id: action.id,
      now: this.clock.now(),
      account_revision: revision,
    };
    try {
      await handleCommand(
        this.store,
        paymentIntentStream(action.payment_intent_id),
        paymentIntentDecider,
        confirm,
        context,
      );
    } catch (error) {
      await failUnconfirmable(this.store, action.id, this.clock.now(), context);
      throw error;
    }
  }
}
