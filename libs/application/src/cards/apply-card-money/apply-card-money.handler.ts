import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { accountCardMoneyDecider, pendingTransaction, type CardEvent } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { accountStream } from '../../accounts/streams';
import { loadCard } from '../card-checks';
import { holdOnAccount } from '../card-money';
import { ApplyCardMoneyCommand } from './apply-card-money.command';

type WithTransaction = Extract<CardEvent, { data: { transaction: unknown } }>;

/**
 * The backstop when a request died between the card stream and the account stream: a held
 * authorization gets its account hold (or is declined), a capture its debit, a reversal or a
 * balance decline its release. Each step is keyed by the transaction id, so repeats change nothing.
 */
@CommandHandler(ApplyCardMoneyCommand)
export class ApplyCardMoneyHandler implements ICommandHandler<ApplyCardMoneyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, event }: ApplyCardMoneyCommand): Promise<void> {
    const { transaction } = (event as WithTransaction).data;
    const base = { account_id: transaction.account_id, hold_id: transaction.id, now: this.clock.now() };
    if (event.type === 'CardAuthorizationHeld') {
      // Only while still pending: a settled or declined one was finished by its request.
      const card = await loadCard(this.store, context.actor, transaction.card_id);
      if (pendingTransaction(card, transaction.id)) await holdOnAccount(this.store, context, transaction, base.now);
      return;
    }
    const money =
      event.type === 'CardTransactionCaptured'
        ? { ...base, type: 'CaptureCardHold' as const, amount: transaction.account_amount }
        : event.type === 'CardAuthorizationApproved'
          ? { ...base, type: 'ReduceCardHold' as const, amount: transaction.account_amount }
          : { ...base, type: 'ReleaseCardHold' as const };
    await handleCommand(this.store, accountStream(transaction.account_id), accountCardMoneyDecider, money, context);
  }
}
