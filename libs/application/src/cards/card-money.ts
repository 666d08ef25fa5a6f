import { isDomainError } from '@app/domain';
import { accountCardMoneyDecider, cardDecider, transactionOf, type CardTransactionRecord, type IssuedCardState } from '@app/domain/cards';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { loadCard } from './card-checks';
import { cardStream } from './streams';

const transactionIn = (state: unknown, id: string) => transactionOf(state as IssuedCardState, id)!;

/**
 * Second step of an approved authorization: the hold on the account stream (its available
 * balance decides). Refused, the card lets go of the usage it held, and the transaction is declined.
 */
export async function holdOnAccount(store: EventStore, context: CommandContext, transaction: CardTransactionRecord, now: number): Promise<CardTransactionRecord> {
  const hold = async () => ({
    type: 'PlaceCardHold' as const,
    account_id: transaction.account_id,
    hold_id: transaction.id,
    amount: transaction.account_amount,
    origin_done: await isFinished(store, context, transaction),
    now,
  });
  try {
    await handleCommand(store, accountStream(transaction.account_id), accountCardMoneyDecider, hold, context);
    return transaction;
  } catch (error) {
    if (!(error instanceof DomainException) || !isDomainError(error.error) || error.error.code !== 'insufficient_funds') throw error;
  }
  const decline = { type: 'DeclineHeldAuthorization' as const, card_id: transaction.card_id, transaction_id: transaction.id, reason: 'insufficient_funds' as const, now };
  const { state } = await handleCommand(store, cardStream(transaction.card_id), cardDecider, decline, context);
  return transactionIn(state, transaction.id);
}

/**
 * Whether the card transaction is no longer pending, read after the account was folded (the hold
 * command is built per attempt): its hold was placed while pending, and every capture or release of
 * it follows the card's decision, so a finished transaction is either held or closed (and gone from
 * the account state), and holding it again would keep money held forever.
 */
async function isFinished(store: EventStore, context: CommandContext, transaction: CardTransactionRecord): Promise<boolean> {
  return !(await loadCard(store, context.actor, transaction.card_id)).pending[transaction.id];
}

/**
 * Capture or reverse: the card stream decides the transaction's fate first (only one of them can
 * win a pending transaction), then the account follows: debit what was captured, or drop the hold.
 */
export async function settleTransaction(
  store: EventStore,
  context: CommandContext,
  cardId: string,
  transactionId: string,
  how: { capture: number | null } | 'reverse',
  now: number,
): Promise<CardTransactionRecord> {
  const command =
    how === 'reverse'
      ? { type: 'ReverseCardTransaction' as const, card_id: cardId, transaction_id: transactionId, now }
      : { type: 'CaptureCardTransaction' as const, card_id: cardId, transaction_id: transactionId, amount: how.capture, now };
  const { state } = await handleCommand(store, cardStream(cardId), cardDecider, command, context);
  const transaction = transactionIn(state, transactionId);
  const money =
    how === 'reverse'
      ? { type: 'ReleaseCardHold' as const, account_id: transaction.account_id, hold_id: transactionId, now }
      : { type: 'CaptureCardHold' as const, account_id: transaction.account_id, hold_id: transactionId, amount: transaction.account_amount, now };
  await handleCommand(store, accountStream(transaction.account_id), accountCardMoneyDecider, money, context);
  return transaction;
}
