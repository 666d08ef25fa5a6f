export * from './payment-types';
export * from './transfer';
export * from './reference/transfer-reference';
