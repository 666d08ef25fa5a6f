import type { PaymentType } from '@app/domain/transfers';
import type { Actor } from '../command-handling';

/** What a transfer needs to know about the payment detail it is routed to. */
export interface TransferablePaymentDetail {
  readonly id: string;
  readonly payment_method: PaymentType;
  readonly currency: string;
  readonly country: string;
  readonly counterparty_id: string;
  readonly counterparty_status: 'active' | 'inactive';
  readonly entity_id: string;
  readonly organization_id: string;
  /** Book transfers: the account of the organization that receives the money. */
  readonly book_account_id: string | null;
}

/**
 * The counterparties context answers this; transfers depend on the port, not on its streams.
 * `null` when the detail does not exist or belongs to another organization (tenancy: 404);
 * throws 403 when an entity token asks for another entity's detail.
 */
export interface PaymentDetailLookup {
  find(actor: Actor, paymentDetailId: string): Promise<TransferablePaymentDetail | null>;
}

export const PAYMENT_DETAIL_LOOKUP = Symbol('PAYMENT_DETAIL_LOOKUP');
