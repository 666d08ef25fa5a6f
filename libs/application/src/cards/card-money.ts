import { isDomainError } from '@app/domain';
import {
  accountCardMoneyDecider,
  cardDecider,
  pendingTransaction,
  type CardEvent,
  type CardState,
  type CardTransactionRecord,
} from '@app/domain/cards';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import {
  DomainException,
  handleCommand,
  loadAggregate,
  type CommandContext,
  type HandleResult,
} from '../command-handling';
import { accountStream } from '../accounts/streams';
import { cardStream } from './streams';

type WithTransaction = Extract<CardEvent, { data: { transaction: CardTransactionRecord } }>;
const recordIn = (event: CardEvent, id: string) =>
  'transaction' in event.data && event.data.transaction.id === id
    ? (event as WithTransaction).data.transaction
    : undefined;

/**
 * The transaction as the card just decided it: the event this command appended, else (a repeat,
 * a no-op) the pending one. The card state keeps pending transactions only.
 */
export function decidedTransaction(
  result: HandleResult<CardEvent, CardState>,
  id: string,
): CardTransactionRecord | undefined {
  for (const event of result.newEvents) {
    const record = recordIn(event, id);
    if (record) return record;
  }
  return result.state.status === 'issued' ? pendingTransaction(result.state, id) : undefined;
}

/** A transaction another request finished since `fromRevision` of its card (a bounded read: the events since it was seen pending). */
export async function finishedSince(
  store: EventStore,
  cardId: string,
  id: string,
  fromRevision: number,
): Promise<CardTransactionRecord> {
  let found: CardTransactionRecord | undefined;
  for (const recorded of await store.readStream(cardStream(cardId), { fromRevision }))
    found = recordIn(recorded as unknown as CardEvent, id) ?? found;
  if (!found) throw new Error(`card transaction ${id} is neither pending nor finished since revision ${fromRevision}`);
  return found;
}

/**
 * Second step of an approved authorization: the hold on the account stream (its available
 * balance decides). Refused, the card lets go of the usage it held, and the transaction is declined.
 */
export async function holdOnAccount(
  store: EventStore,
  context: CommandContext,
  transaction: CardTransactionRecord,
  now: number,
): Promise<CardTransactionRecord> {
  // A hold is placed only while the card transaction is pending, read after the account was folded:
  // every capture or release follows the card's decision, so a finished transaction's hold was
  // placed and closed already (gone from the account state), and holding it again would keep money
  // held forever. `seenPending`: the card revision it was last seen pending at; what finished it comes after.
  let seenPending = 0;
  const hold = async () => {
    const card = await loadAggregate(store, cardStream(transaction.card_id), cardDecider, context);
    const pending = card?.state.status === 'issued' && pendingTransaction(card.state, transaction.id) !== undefined;
    if (pending) seenPending = card.revision;
    return {
      type: 'PlaceCardHold' as const,
      account_id: transaction.account_id,
      hold_id: transaction.id,
      amount: transaction.account_amount,
      origin_done: !pending,
      now,
    };
  };
  try {
    await handleCommand(store, accountStream(transaction.account_id), accountCardMoneyDecider, hold, context);
    return transaction;
  } catch (error) {
    if (!(error instanceof DomainException) || !isDomainError(error.error) || error.error.code !== 'insufficient_funds')
      throw error;
  }
  const decline = {
    type: 'DeclineHeldAuthorization' as const,
    card_id: transaction.card_id,
    transaction_id: transaction.id,
    reason: 'insufficient_funds' as const,
    now,
  };
  const declined = decidedTransaction(
    await handleCommand(store, cardStream(transaction.card_id), cardDecider, decline, context),
    transaction.id,
  );
  return declined ?? finishedSince(store, transaction.card_id, transaction.id, seenPending + 1);
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
      : {
          type: 'CaptureCardTransaction' as const,
          card_id: cardId,
          transaction_id: transactionId,
          amount: how.capture,
          now,
        };
  const transaction = decidedTransaction(
    await handleCommand(store, cardStream(cardId), cardDecider, command, context),
    transactionId,
  )!;
  const money =
    how === 'reverse'
      ? { type: 'ReleaseCardHold' as const, account_id: transaction.account_id, hold_id: transactionId, now }
      : {
          type: 'CaptureCardHold' as const,
          account_id: transaction.account_id,
          hold_id: transactionId,
          amount: transaction.account_amount,
          now,
        };
  await handleCommand(store, accountStream(transaction.account_id), accountCardMoneyDecider, money, context);
  return transaction;
}
