import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { rule } from '@app/domain';
import { accountDecider } from '@app/domain/accounts';
import { invalidState, refundableOf, type RefundRecord } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { DomainException, handleCommand } from '../../command-handling';
import { accountStream } from '../../accounts/streams';
import { collectionLogReader } from '../collection-log-reader';
import { loadIntent } from '../load';
import { recordRefund } from '../record-refund/record-refund';
import { RefundPaymentIntentCommand } from './refund-payment-intent.command';

const exceeds = (left: number) =>
  new DomainException(rule('refund_exceeds_charge', `At most ${left} can still be refunded`, [{ field: 'amount', message: 'exceeds the charge less earlier refunds' }]));

/**
 * The account stream decides (charge left, then available balance) and debits in one append, with
 * what its log says of the collection read after the fold (a concurrent refund is a conflict);
 * the intent then records the refund, which fires `payment_intent.refunded`. The refund process
 * manager records it from the account event if this request dies in between.
 */
@CommandHandler(RefundPaymentIntentCommand)
export class RefundPaymentIntentHandler implements ICommandHandler<RefundPaymentIntentCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, paymentIntentId, amount, reason }: RefundPaymentIntentCommand): Promise<RefundRecord> {
    const intent = await loadIntent(this.store, context.actor, paymentIntentId);
    if (intent.status !== 'completed') throw new DomainException(invalidState(intent, 'refunded'));
    const left = refundableOf(intent);
    const value = amount ?? left;
    if (value < 1 || value > left) throw exceeds(left);
    const { account_id, currency } = intent.intent;
    const refund_id = `rfd_${ulid()}`;
    // The charge left and whether this refund was applied come from the account's log, per attempt.
    const collection = collectionLogReader(this.store, account_id, paymentIntentId, intent.account_revision);
    const debit = async () => ({
      type: 'RefundCollection' as const,
      account_id,
      payment_intent_id: paymentIntentId,
      refund_id,
      amount: value,
      currency,
      reason,
      now: Date.now(),
      collection: await collection(),
    });
    const { newEvents } = await handleCommand(this.store, accountStream(account_id), accountDecider, debit, context);
    const refunded = newEvents.find((e) => e.type === 'CollectionRefunded');
    if (!refunded || refunded.type !== 'CollectionRefunded') throw new Error(`refund ${refund_id} was not applied`);
    return recordRefund(this.store, refunded.data, context);
  }
}
