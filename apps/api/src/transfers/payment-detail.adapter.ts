import { Inject, Injectable } from '@nestjs/common';
import { findTransferReadyPaymentDetail } from '@app/application/counterparties';
import { DomainException, type Actor } from '@app/application/command-handling';
import type { PaymentDetailLookup, TransferablePaymentDetail } from '@app/application/transfers';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';

/** The counterparties context's transfer-ready query behind the transfers' port. */
@Injectable()
export class CounterpartiesPaymentDetailLookup implements PaymentDetailLookup {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async find(actor: Actor, paymentDetailId: string): Promise<TransferablePaymentDetail | null> {
    try {
      const doc = await findTransferReadyPaymentDetail(this.readStore, actor, paymentDetailId);
      return {
        id: doc.id,
        payment_method: doc.payment_method,
        currency: doc.currency,
        country: doc.country,
        counterparty_id: doc.counterparty_id,
        counterparty_status: doc.counterparty_status,
        entity_id: doc.entity_id,
        organization_id: doc.organization_id,
        book_account_id: doc.destination_account_id,
      };
    } catch (error) {
      if (error instanceof DomainException && error.error.kind === 'not_found') return null;
      throw error;
    }
  }
}
