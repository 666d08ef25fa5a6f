import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { cardTransactionIndexDecider, pendingTransaction, type CardTransactionRecord } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, loadAggregate } from '../../command-handling';
import { loadCard } from '../card-checks';
import { holdOnAccount, settleTransaction } from '../card-money';
import { cardTransactionStream, isCardTransactionId } from '../streams';
import { SettleCardTransactionCommand } from './settle-card-transaction.command';

/** From the transaction id to its card through the index stream the authorization wrote first. */
@CommandHandler(SettleCardTransactionCommand)
export class SettleCardTransactionHandler implements ICommandHandler<SettleCardTransactionCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, transactionId, how }: SettleCardTransactionCommand): Promise<CardTransactionRecord> {
    const index = isCardTransactionId(transactionId)
      ? await loadAggregate(this.store, cardTransactionStream(transactionId), cardTransactionIndexDecider, context)
      : null;
    const cardId = index?.state.card_id;
    if (!cardId) throw new DomainException(notFound('card_transaction', transactionId));
    // The index says the transaction exists; the card keeps it while pending, and refuses a finished one.
    const transaction = pendingTransaction(await loadCard(this.store, context.actor, cardId), transactionId);
    const now = this.clock.now();
    // The authorization's own second step first (a no-op once done): a capture never debits a hold
    // that was not placed, and a reversal never races the hold it releases.
    if (transaction) await holdOnAccount(this.store, context, transaction, now);
    return settleTransaction(this.store, context, cardId, transactionId, how, now);
  }
}
