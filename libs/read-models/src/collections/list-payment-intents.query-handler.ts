import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListPaymentIntentsQuery } from './list-payment-intents.query';
import type { PaymentIntentDocument } from './payment-intent.projection';

@QueryHandler(ListPaymentIntentsQuery)
export class ListPaymentIntentsHandler implements IQueryHandler<ListPaymentIntentsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter, page }: ListPaymentIntentsQuery): Promise<Page<PaymentIntentDocument>> {
    return this.readStore.find<PaymentIntentDocument>('payment_intents', { ...page, filter });
  }
}
