import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { notFound, rule } from '@app/domain';
import type { OpenAccountState } from '@app/domain/accounts';
import { isTransfer, transferDecider, transferFee, transferReferenceDecider, type AdvanceTarget, type FeeSchedule, type PaymentType, type TransferIntent, type TransferRecord } from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, loadAggregate, type CommandContext } from '../command-handling';
import { finishReservation } from './finish-reservation';
import { advanceTransfer, settleBookTransfer } from './transfer-money';
import { findPaymentDetail } from '../counterparties/payment-detail-index';
import { transferReferenceStream, transferStream, isTransferId } from './streams';
import { bookDestination, checkFunds, checkRoute, paymentDetailNotFound, sourceAccount } from './transfer-checks';

export const TRANSFER_FEES = Symbol('TRANSFER_FEES');

export interface CreateTransferInput {
  readonly account_id: string;
  readonly payment_detail_id: string;
  readonly amount: number;
  readonly payment_type: PaymentType;
  readonly description: string | null;
  readonly unique_reference: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** `created` false: the reference was already used on the account, and this is that transfer (409). */
export interface CreatedTransfer {
  readonly transfer: TransferRecord;
  readonly created: boolean;
}

/** A reference can be freed (its transfer voided) and re-reserved under us; a few rounds settle it. */
const RESERVATION_ROUNDS = 5;

@Injectable()
export class TransfersService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(TRANSFER_FEES) private readonly fees: FeeSchedule,
  ) {}

  async create(context: CommandContext, input: CreateTransferInput): Promise<CreatedTransfer> {
    const account = await sourceAccount(this.store, context.actor, input.account_id);
    const reference = transferReferenceStream(account.id, input.unique_reference);
    // A repeat is answered with the original before any other check: the balance it spent, or a
    // payment detail since removed, must not turn a duplicate into a different error.
    const earlier = await loadAggregate(this.store, reference, transferReferenceDecider, context);
    if (earlier?.state.status === 'reserved') {
      const finished = await finishReservation(this.store, earlier.state.intent, context);
      if (finished.outcome === 'created') return { transfer: await this.settledIfBook(context, finished.transfer), created: false };
    }
    const intent = await this.intentFor(context, account, input);
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

  /** Read-your-writes: folds the stream. With an API key `entityId` must name the owner (else 404). */
  async get(context: Pick<CommandContext, 'actor'>, id: string, entityId: string): Promise<TransferRecord> {
    if (!isTransferId(id)) throw new DomainException(notFound('transfer', id));
    const loaded = await loadAggregate(this.store, transferStream(id), transferDecider, context);
    if (!loaded || !isTransfer(loaded.state) || loaded.state.transfer.entity_id !== entityId) throw new DomainException(notFound('transfer', id));
    return loaded.state.transfer;
  }

  /** Answers after the move's money is on the account streams (decisions §2). */
  async advance(context: CommandContext, id: string, to: AdvanceTarget, statusReason: string | null): Promise<TransferRecord> {
    if (!isTransferId(id)) throw new DomainException(notFound('transfer', id));
    const transfer = await advanceTransfer(this.store, id, to, statusReason, context);
    if (!transfer) throw new DomainException(notFound('transfer', id));
    return transfer;
  }

  /** A book transfer settles before the request answers: both balances already show it. */
  private async settledIfBook(context: CommandContext, transfer: TransferRecord): Promise<TransferRecord> {
    if (transfer.payment_type !== 'book-transfer') return transfer;
    await settleBookTransfer(this.store, transfer.id, context);
    const loaded = await loadAggregate(this.store, transferStream(transfer.id), transferDecider, context);
    return loaded && isTransfer(loaded.state) ? loaded.state.transfer : transfer;
  }

  /** Every check that can refuse runs here, before anything is written. */
  private async intentFor(context: CommandContext, account: OpenAccountState, input: CreateTransferInput): Promise<TransferIntent> {
    const detail = await findPaymentDetail(this.store, context.actor, input.payment_detail_id);
    if (!detail) throw paymentDetailNotFound(input.payment_detail_id);
    checkRoute(account, input.payment_type, detail);
    const destination = input.payment_type === 'book-transfer' ? await bookDestination(this.store, context.actor, account, detail) : null;
    const fee = transferFee(this.fees, input.payment_type, input.amount);
    checkFunds(account, input.amount, fee);
    const now = Date.now();
    return {
      id: `trf_${ulid()}`,
      account_id: account.id,
      entity_id: account.entity_id,
      counterparty_id: detail.counterparty_id,
      payment_detail_id: detail.id,
      currency: account.currency,
      amount: input.amount,
      fee,
      payment_type: input.payment_type,
      description: input.description,
      unique_reference: input.unique_reference,
      metadata: input.metadata,
      created: now,
      destination_account_id: destination,
    };
  }
}
