import { Query } from '@nestjs/cqrs';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { PaymentDetailDocument } from './payment-detail.projection';

/** The payment details of one counterparty (the caller has already been allowed to see it). */
export class ListPaymentDetailsQuery extends Query<Page<PaymentDetailDocument>> {
  constructor(
    readonly organizationId: string,
    readonly counterpartyId: string,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
