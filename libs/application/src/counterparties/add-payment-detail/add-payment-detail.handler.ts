import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PaymentDetailData } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { bookDestination, scopeOf } from '../counterparty-scope';
import { onCounterparty } from '../on-counterparty';
import { indexPaymentDetail } from '../payment-detail-index';
import { AddPaymentDetailCommand } from './add-payment-detail.command';

@CommandHandler(AddPaymentDetailCommand)
export class AddPaymentDetailHandler implements ICommandHandler<AddPaymentDetailCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, counterpartyId, detail }: AddPaymentDetailCommand): Promise<PaymentDetailData> {
    const book = detail.book ? await bookDestination(this.store, context, detail.book.account_id) : null;
    const payment_detail_id = `pmd_${ulid()}`;
    const command = {
      type: 'AddPaymentDetail' as const,
      counterparty_id: counterpartyId,
      scope: scopeOf(context.actor),
      payment_detail_id,
      detail,
      book,
      now: this.clock.now(),
    };
    const state = await onCounterparty(this.store, context, counterpartyId, command);
    // Before answering, so a payout naming the new id finds it at once.
    await indexPaymentDetail(this.store, context, payment_detail_id, counterpartyId);
    return state.payment_details.find((d) => d.payment_detail_id === payment_detail_id)!;
  }
}
