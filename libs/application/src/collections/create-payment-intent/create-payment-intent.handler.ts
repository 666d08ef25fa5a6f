import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { rule } from '@app/domain';
import {
  intentReferenceDecider,
  isPaymentIntent,
  paymentIntentDecider,
  refuseNewIntent,
  type NewPaymentIntent,
  type PaymentIntentRecord,
} from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand, type CommandContext } from '../../command-handling';
import { loadOpenAccount } from '../../accounts/account';
import { CardDecryption } from '../card-decryption';
import { readCard } from '../confirm-payment-intent/read-card';
import { ConfirmPaymentIntentCommand } from '../confirm-payment-intent/confirm-payment-intent.command';
import { loadIntent, viewOf } from '../load';
import { intentReferenceStream, paymentIntentStream } from '../streams';
import {
  CreatePaymentIntentCommand,
  type CreatedPaymentIntent,
  type CreatePaymentIntentInput,
} from './create-payment-intent.command';

/** Reserve the reference (carrying the whole intent), create the intent, and confirm it when asked to. */
@CommandHandler(CreatePaymentIntentCommand)
export class CreatePaymentIntentHandler implements ICommandHandler<CreatePaymentIntentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly decryption: CardDecryption,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, input }: CreatePaymentIntentCommand): Promise<CreatedPaymentIntent> {
    const intent = await this.newIntent(context, input);
    // Create-and-confirm checks the whole action first, so a bad card writes nothing.
    if (input.intent_action) await readCard(this.decryption, context.actor, input.intent_action, this.clock.date());
    const reserve = { type: 'ReserveIntentReference' as const, intent, now: this.clock.now() };
    const { state } = await handleCommand(
      this.store,
      intentReferenceStream(intent.account_id, intent.reference),
      intentReferenceDecider,
      reserve,
      context,
      { entityId: intent.entity_id },
    );
    if (state.status !== 'reserved') throw new Error('intent reference not reserved');
    // The reserving request may have died before creating its intent: whoever comes next creates it.
    const created = await this.create(context, state.intent);
    // Another request's intent holds the reference (or an earlier attempt of this one, retried after
    // its key's lease ran out): the answer names it, so the caller can fetch it instead of guessing.
    if (state.intent.id !== intent.id) return { intent: created, intent_action: null, created: false };
    if (!input.intent_action) return { intent: created, intent_action: null, created: true };
    const action = await this.commands.execute(
      new ConfirmPaymentIntentCommand(context, intent.id, input.intent_action),
    );
    const after = await loadIntent(this.store, context.actor, intent.id);
    return { intent: after.intent, intent_action: await viewOf(this.store, context.actor, action), created: true };
  }

  private async newIntent(context: CommandContext, input: CreatePaymentIntentInput): Promise<NewPaymentIntent> {
    const account = await loadOpenAccount(this.store, context.actor, input.account_id);
    const intent: NewPaymentIntent = {
      id: `pi_${ulid()}`,
      currency: input.currency,
      amount: input.amount,
      reference: input.reference,
      description: input.description,
      entity_id: account.entity_id,
      account_id: account.id,
      created: this.clock.now(),
    };
    const refused = refuseNewIntent(intent);
    if (refused) throw new DomainException(refused);
    if (input.currency !== account.currency)
      throw new DomainException(
        rule('currency_mismatch', `The account holds ${account.currency}, not ${input.currency}`, [
          { field: 'currency', message: `must be ${account.currency}` },
        ]),
      );
    return intent;
  }

  private async create(context: CommandContext, intent: NewPaymentIntent): Promise<PaymentIntentRecord> {
    const { state } = await handleCommand(
      this.store,
      paymentIntentStream(intent.id),
      paymentIntentDecider,
      { type: 'CreatePaymentIntent', intent },
      context,
      { entityId: intent.entity_id },
    );
    if (!isPaymentIntent(state)) throw new Error(`payment intent ${intent.id} not created`);
    return state.intent;
  }
}
