import { Query } from '@nestjs/cqrs';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { Page, PageQuery } from '@app/platform/read-store/read-store.port';
import type { PaymentDetailDocument } from './payment-detail.projection';

/** The payment details of one counterparty (the caller has already been allowed to see it). */
export class ListPaymentDetailsQuery extends Query<Page<PaymentDetailDocument>> {
  constructor(
    readonly organizationId: string,
    readonly mode: Mode,
    readonly counterpartyId: string,
    readonly page: Pick<PageQuery, 'limit' | 'before'>,
  ) {
    super();
  }
}
