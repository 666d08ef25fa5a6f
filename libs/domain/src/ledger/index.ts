export * from './ledger';
export * from './money-movements';
export * from './ledger-fold';
