const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

export const cardStream = (id: string) => `card-${id}`;
/** Checked before an id from a URL names a stream (`card-` also prefixes the reservations below). */
export const isCardId = (id: string) => new RegExp(`^crd_${ULID}$`).test(id);
export const isCardTransactionId = (id: string) => new RegExp(`^ctxn_${ULID}$`).test(id);
/** Keyed by a keyed digest of the number, never the number: stream names are not secret. */
export const cardNumberStream = (digest: string) => `card-number-${digest}`;
export const cardTransactionStream = (id: string) => `card-transaction-${id}`;
export const cardCreationsStream = (entityId: string, hourStart: number) => `card-creations-${entityId}-${hourStart}`;
