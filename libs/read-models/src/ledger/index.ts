export * from './ledger.projection';
export * from './get-ledger.query';
export * from './get-ledger.query-handler';
export * from './ledger-metrics';
