import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { indexPaymentDetail } from '../payment-detail-index';
import { IndexPaymentDetailCommand } from './index-payment-detail.command';

@CommandHandler(IndexPaymentDetailCommand)
export class IndexPaymentDetailHandler implements ICommandHandler<IndexPaymentDetailCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  execute({ context, paymentDetailId, counterpartyId }: IndexPaymentDetailCommand): Promise<void> {
    return indexPaymentDetail(this.store, context, paymentDetailId, counterpartyId);
  }
}
