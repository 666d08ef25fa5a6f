export * from './get-ledger/get-ledger.query';
export * from './get-ledger/get-ledger.handler';
export * from './ledger-metrics';
