// The ledger's reader (the projection, its query handler and metrics) is a read model: @app/read-models/ledger.
export * from './get-ledger/get-ledger.query';
