import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { rule } from '@app/domain';
import { accountDecider } from '@app/domain/accounts';
import {
  invalidState,
  paymentIntentDecider,
  refundableOf,
  type RefundRecord,
  type RequestedRefund,
} from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, foldStream, handleCommand } from '../../command-handling';
import { accountStream } from '../../accounts/streams';
import { finishRefund } from '../finish-refund/finish-refund';
import { loadIntent } from '../load';
import { paymentIntentStream } from '../streams';
import { RefundPaymentIntentCommand } from './refund-payment-intent.command';

const exceeds = (left: number) =>
  new DomainException(
    rule('refund_exceeds_charge', `At most ${left} can still be refunded`, [
      { field: 'amount', message: 'exceeds the charge less earlier refunds' },
    ]),
  );

/**
 * The intent sets the refund aside (the charge left, decided on its own stream, so concurrent
 * refunds never pass it), then the account debits it (available balance) and the intent records
 * it, which fires `payment_intent.refunded`; refused, the intent frees it. Each step reads a
 * bounded number of events: the account's log is read from the revision recorded on the request.
 * The refund backstops finish it if this request dies in between.
 */
@CommandHandler(RefundPaymentIntentCommand)
export class RefundPaymentIntentHandler implements ICommandHandler<RefundPaymentIntentCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, paymentIntentId, amount, reason }: RefundPaymentIntentCommand): Promise<RefundRecord> {
    const intent = await loadIntent(this.store, context.actor, paymentIntentId);
    if (intent.status !== 'completed') throw new DomainException(invalidState(intent, 'refunded'));
    const left = refundableOf(intent);
    const value = amount ?? left;
    if (value < 1 || value > left) throw exceeds(left);
    // Read before the request is appended, so the debit lands after this revision.
    const { revision } = await foldStream(this.store, accountStream(intent.intent.account_id), accountDecider);
    const request = {
      type: 'RequestRefund' as const,
      payment_intent_id: paymentIntentId,
      refund_id: `rfd_${ulid()}`,
      amount: value,
      reason,
      account_revision: revision,
      now: this.clock.now(),
    };
    const { newEvents } = await handleCommand(
      this.store,
      paymentIntentStream(paymentIntentId),
      paymentIntentDecider,
      request,
      context,
    );
    const requested = newEvents.find((e) => e.type === 'PaymentIntentRefundRequested');
    if (!requested) throw new Error(`refund ${request.refund_id} was not set aside`);
    const refund = await finishRefund(
      this.store,
      this.clock,
      (requested.data as { refund: RequestedRefund }).refund,
      context,
    );
    if (!refund) throw new Error(`refund ${request.refund_id} was refused by another driver`);
    return refund;
  }
}
