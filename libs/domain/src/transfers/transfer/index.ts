export * from './transfer.events';
export * from './transfer';
export * from './transfer.decide';
