import type { PaymentType } from '@app/domain/transfers';

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
