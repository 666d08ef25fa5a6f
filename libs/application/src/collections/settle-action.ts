import { accountDecider } from '@app/domain/accounts';
import { intentActionDecider, isFinal, paymentIntentDecider, type IntentActionRecord } from '@app/domain/collections';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { accountLogReader } from '../accounts/account-log-reader';
import { loadIntent } from './load';
import { intentActionStream, paymentIntentStream } from './streams';

/**
 * What a decided action does: completed credits the account with amount − fee (keyed by the
 * intent, so once: the command says whether the account's log already holds the credit) and then
 * completes the intent; failed fails the intent. Every step is a no-op the second time, so the
 * request and the settlement process manager may both run it. An action its intent does not point
 * at (it lost a race to confirm) moves nothing.
 */
export async function settleAction(
  store: EventStore,
  action: IntentActionRecord,
  context: CommandContext,
  now: number,
): Promise<void> {
  if (!isFinal(action.status)) return;
  const intent = await loadIntent(store, context.actor, action.payment_intent_id);
  if (intent.intent.intent_action_id !== action.id) return;
  const base = { payment_intent_id: action.payment_intent_id, intent_action_id: action.id, now };
  if (action.status === 'failed') {
    await handleCommand(
      store,
      paymentIntentStream(action.payment_intent_id),
      paymentIntentDecider,
      { ...base, type: 'FailPaymentIntent', status_reason: action.status_reason ?? 'payment_failed' },
      context,
    );
    return;
  }
  // Completed means credited (the credit comes first): the intent's own stream answers a late repeat.
  if (intent.status === 'completed') return;
  // Credited once per intent: the account's log from the confirmation on says whether it was.
  const credited = accountLogReader(
    store,
    action.account_id,
    (intent.account_revision ?? -1) + 1,
    (e) => e.type === 'CollectionCredited' && e.data.payment_intent_id === action.payment_intent_id,
  );
  const credit = async () => ({
    type: 'CreditCollection' as const,
    account_id: action.account_id,
    payment_intent_id: action.payment_intent_id,
    amount: action.amount,
    fee: action.applicable_fee,
    currency: action.currency,
    now,
    already_credited: await credited(),
  });
  await handleCommand(store, accountStream(action.account_id), accountDecider, credit, context);
  await handleCommand(
    store,
    paymentIntentStream(action.payment_intent_id),
    paymentIntentDecider,
    { ...base, type: 'CompletePaymentIntent' },
    context,
  );
}

/** An action whose intent cannot be confirmed by it (confirmed by another, or no longer confirmable) fails. */
export async function failUnconfirmable(store: EventStore, actionId: string, now: number, context: CommandContext) {
  const fail = {
    type: 'FailIntentAction' as const,
    intent_action_id: actionId,
    status_reason: 'intent_not_confirmable',
    now,
  };
  await handleCommand(store, intentActionStream(actionId), intentActionDecider, fail, context);
}
