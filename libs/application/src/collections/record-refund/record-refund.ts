import type { CollectionEvent } from '@app/domain/accounts';
import { paymentIntentDecider, type RefundRecord } from '@app/domain/collections';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, type CommandContext } from '../../command-handling';
import { paymentIntentStream } from '../streams';

type Refunded = Extract<CollectionEvent, { type: 'CollectionRefunded' }>['data'];

/** The refund as the intent records it, from the account's debit (idempotent by refund id). */
export async function recordRefund(store: EventStore, debit: Refunded, context: CommandContext): Promise<RefundRecord> {
  const refund: RefundRecord = {
    id: debit.refund_id,
    payment_intent_id: debit.payment_intent_id,
    account_id: debit.account_id,
    amount: debit.amount,
    currency: debit.currency,
    reason: debit.reason,
    status: 'succeeded',
    created: debit.refunded,
  };
  await handleCommand(
    store,
    paymentIntentStream(refund.payment_intent_id),
    paymentIntentDecider,
    { type: 'RecordRefund', payment_intent_id: refund.payment_intent_id, refund, now: debit.refunded },
    context,
  );
  return refund;
}
