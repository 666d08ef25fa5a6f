import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '@app/domain';
import { PAYMENT_DETAIL_ID } from '@app/application/counterparties/streams';
import { DomainException, forbidden, visibility, type Actor } from '@app/application/command-handling';
import { PAYMENT_DETAILS, type PaymentDetailDocument } from '@app/read-models/counterparties/payment-detail.projection';
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

/**
 * The transfers feature's way to a payment detail: the read model, never the counterparty stream.
 * Tenancy as everywhere: another organization's id is not found, another entity's is forbidden
 * for an entity token. Lists trail the log by milliseconds, so a detail added a moment ago may
 * not be here yet (the caller answers 404, and a retry finds it).
 */
async function findTransferReadyPaymentDetail(readStore: ReadStore, actor: Actor, paymentDetailId: string): Promise<PaymentDetailDocument> {
  const doc = PAYMENT_DETAIL_ID.test(paymentDetailId) ? await readStore.get<PaymentDetailDocument>(PAYMENT_DETAILS, paymentDetailId) : null;
  const seen = doc ? visibility(doc, actor) : 'not_found';
  if (seen === 'forbidden') throw forbidden();
  if (!doc || seen === 'not_found') throw new DomainException(notFound('payment_detail', paymentDetailId));
  return doc;
}
