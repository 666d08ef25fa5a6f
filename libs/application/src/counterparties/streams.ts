const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
export const COUNTERPARTY_ID = new RegExp(`^cpt_${ULID}$`);
export const PAYMENT_DETAIL_ID = new RegExp(`^pmd_${ULID}$`);
/** Ids from a URL are checked before they name a stream. */
export const isCounterpartyId = (id: string) => COUNTERPARTY_ID.test(id);
export const counterpartyStream = (id: string) => `counterparty-${id}`;
export const isPaymentDetailId = (id: string) => PAYMENT_DETAIL_ID.test(id);
/** Points a payment detail's id at its counterparty (see payment-detail-index in the domain). */
export const paymentDetailIndexStream = (id: string) => `payment-detail-${id}`;
