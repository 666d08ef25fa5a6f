import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isPaymentIntent, paymentIntentDecider, type PaymentIntentRecord } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { loadIntent } from '../load';
import { paymentIntentStream } from '../streams';
import { CancelPaymentIntentCommand } from './cancel-payment-intent.command';

@CommandHandler(CancelPaymentIntentCommand)
export class CancelPaymentIntentHandler implements ICommandHandler<CancelPaymentIntentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, paymentIntentId: id, reason }: CancelPaymentIntentCommand): Promise<PaymentIntentRecord> {
    const before = await loadIntent(this.store, context.actor, id);
    const cancel = { type: 'CancelPaymentIntent' as const, payment_intent_id: id, reason, now: this.clock.now() };
    const { state } = await handleCommand(this.store, paymentIntentStream(id), paymentIntentDecider, cancel, context);
    return isPaymentIntent(state) ? state.intent : before.intent;
  }
}
