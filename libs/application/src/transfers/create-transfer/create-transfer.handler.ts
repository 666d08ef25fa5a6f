import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { rule } from '@app/domain';
import { isTransfer, transferDecider, transferReferenceDecider, type FeeSchedule, type TransferRecord } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, loadAggregate, type CommandContext } from '../../command-handling';
import { finishReservation } from '../finish-reservation';
import { transferReferenceStream, transferStream } from '../streams';
import { sourceAccount } from '../transfer-checks';
import { settleBookTransfer } from '../transfer-money';
import { CreateTransferCommand, type CreatedTransfer } from './create-transfer.command';
import { transferIntent } from './transfer-intent';

export const TRANSFER_FEES = Symbol('TRANSFER_FEES');

/** A reference can be freed (its transfer voided) and re-reserved under us; a few rounds settle it. */
const RESERVATION_ROUNDS = 5;

/**
 * Reserve the reference (with the whole request), hold the money, create the transfer: each step
 * idempotent, so a duplicate, a retry and the recovery process manager may all drive it.
 */
@CommandHandler(CreateTransferCommand)
export class CreateTransferHandler implements ICommandHandler<CreateTransferCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(TRANSFER_FEES) private readonly fees: FeeSchedule,
  ) {}

  async execute({ context, input }: CreateTransferCommand): Promise<CreatedTransfer> {
    const account = await sourceAccount(this.store, context.actor, input.account_id);
    const reference = transferReferenceStream(account.id, input.unique_reference);
    // A repeat is answered with the original before any other check: the balance it spent, or a
    // payment detail since removed, must not turn a duplicate into a different error.
    const earlier = await loadAggregate(this.store, reference, transferReferenceDecider, context);
    if (earlier?.state.status === 'reserved') {
      const finished = await finishReservation(this.store, earlier.state.intent, context);
      if (finished.outcome === 'created') return { transfer: await this.settledIfBook(context, finished.transfer), created: false };
    }
    const intent = await transferIntent(this.store, this.fees, context, account, input);
    for (let round = 0; round < RESERVATION_ROUNDS; round++) {
      const reserve = { type: 'ReserveTransferReference' as const, intent, now: Date.now() };
      const { state, newEvents } = await handleCommand(this.store, reference, transferReferenceDecider, reserve, context, { entityId: intent.entity_id });
      if (state.status !== 'reserved') continue;
      const mine = newEvents.length > 0;
      // A duplicate finishes the first request's transfer before answering with it.
      const finished = await finishReservation(this.store, state.intent, context);
      if (finished.outcome === 'created') return { transfer: await this.settledIfBook(context, finished.transfer), created: mine };
      if (mine) throw new DomainException(rule('insufficient_funds', `Available balance is below ${intent.amount + intent.fee} (amount ${intent.amount} + fee ${intent.fee})`));
      // The first request's hold was refused and its reference freed: this one may try its own.
    }
    throw new Error(`transfer reference ${intent.unique_reference} kept changing hands`);
  }

  /** A book transfer settles before the request answers: both balances already show it. */
  private async settledIfBook(context: CommandContext, transfer: TransferRecord): Promise<TransferRecord> {
    if (transfer.payment_type !== 'book-transfer') return transfer;
    await settleBookTransfer(this.store, transfer.id, context);
    const loaded = await loadAggregate(this.store, transferStream(transfer.id), transferDecider, context);
    return loaded && isTransfer(loaded.state) ? loaded.state.transfer : transfer;
  }
}
