import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { PaymentIntentRecord } from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { loadIntent } from '../load';
import { GetPaymentIntentQuery } from './get-payment-intent.query';

@QueryHandler(GetPaymentIntentQuery)
export class GetPaymentIntentHandler implements IQueryHandler<GetPaymentIntentQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, paymentIntentId }: GetPaymentIntentQuery): Promise<PaymentIntentRecord> {
    return (await loadIntent(this.store, actor, paymentIntentId)).intent;
  }
}
