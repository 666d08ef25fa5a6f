import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type Page, type ReadStore } from '@app/platform/read-store/read-store.port';
import { ListPaymentDetailsQuery } from './list-payment-details.query';
import { PAYMENT_DETAILS, type PaymentDetailDocument } from './payment-detail.projection';

@QueryHandler(ListPaymentDetailsQuery)
export class ListPaymentDetailsHandler implements IQueryHandler<ListPaymentDetailsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({
    organizationId,
    mode,
    counterpartyId,
    page,
  }: ListPaymentDetailsQuery): Promise<Page<PaymentDetailDocument>> {
    const filter = { organization_id: organizationId, mode, counterparty_id: counterpartyId };
    return this.readStore.find<PaymentDetailDocument>(PAYMENT_DETAILS, {
      limit: page.limit,
      before: page.before,
      filter,
    });
  }
}
