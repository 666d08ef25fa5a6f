import { isDomainError } from '@app/domain';
import { accountDecider, type AccountEvent, type CollectionEvent } from '@app/domain/accounts';
import {
  isPaymentIntent,
  paymentIntentDecider,
  type RefundRecord,
  type RequestedRefund,
} from '@app/domain/collections';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import type { Clock } from '@app/platform/clock';
import { DomainException, foldStream, handleCommand, type CommandContext } from '../../command-handling';
import { accountStream } from '../../accounts/streams';
import { accountLogFinder } from '../../accounts/account-log-reader';
import { recordRefund } from '../record-refund/record-refund';
import { paymentIntentStream } from '../streams';

type Refunded = Extract<CollectionEvent, { type: 'CollectionRefunded' }>;

/** Every writer on one account contends for its stream; enough retries that a burst all lands. */
const MONEY_ATTEMPTS = 200;

/**
 * Drives a refund set aside on its intent to its end, once: the account debits it (the available
 * balance decides) and the intent records it, or, refused, frees what it set aside (and the
 * refusal is thrown). The request that asked for it and the backstop after a crash may both run
 * this: whether the debit landed is read from the account revision the request recorded on, so
 * the read is bounded by what happened since. Null when the refund was refused earlier.
 */
export async function finishRefund(
  store: EventStore,
  clock: Clock,
  requested: RequestedRefund,
  context: CommandContext,
): Promise<RefundRecord | null> {
  const { state: intent } = await foldStream(
    store,
    paymentIntentStream(requested.payment_intent_id),
    paymentIntentDecider,
  );
  if (!isPaymentIntent(intent)) return null;
  const recorded = intent.refunds.find((r) => r.id === requested.refund_id);
  if (recorded) return recorded;
  if (!intent.requested[requested.refund_id]) return null;
  const { account_id, currency } = intent.intent;
  const landed = accountLogFinder(
    store,
    account_id,
    requested.account_revision + 1,
    (e: AccountEvent): e is Refunded => e.type === 'CollectionRefunded' && e.data.refund_id === requested.refund_id,
  );
  const { payment_intent_id, refund_id, amount, reason } = requested;
  const debit = async () => ({
    type: 'RefundCollection' as const,
    account_id,
    payment_intent_id,
    refund_id,
    amount,
    currency,
    reason,
    now: clock.now(),
    already_refunded: (await landed()) !== null,
  });
  try {
    await handleCommand(store, accountStream(account_id), accountDecider, debit, context, {
      maxAttempts: MONEY_ATTEMPTS,
    });
  } catch (error) {
    if (!(error instanceof DomainException) || !isDomainError(error.error) || error.error.code !== 'insufficient_funds')
      throw error;
    const fail = {
      type: 'FailRefund' as const,
      payment_intent_id,
      refund_id,
      reason: error.error.code,
      now: clock.now(),
    };
    await handleCommand(store, paymentIntentStream(payment_intent_id), paymentIntentDecider, fail, context);
    throw error;
  }
  const debited = await landed();
  if (!debited) throw new Error(`refund ${refund_id} not found on account ${account_id} after debiting it`);
  return recordRefund(store, debited.data, context);
}
